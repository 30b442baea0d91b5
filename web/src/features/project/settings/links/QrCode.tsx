// A QR code of a link, drawn by the `qrcode` package loaded on first use: it never weighs on the collect screens.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function QrCode({ text, label, fileName }: { text: string; label: string; fileName: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState('');
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setSrc('');
    setFailed(false);
    import('qrcode')
      .then((qr) => qr.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 288 }))
      .then(
        (url) => live && setSrc(url),
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, [text]);
  if (failed) return <p className="banner error">{t('links.qrFailed')}</p>;
  if (!src) return <div className="loading">{t('app.loading')}</div>;
  return (
    <figure className="link-qr">
      <img src={src} alt={label} width={288} height={288} data-testid="link-qr" />
      <figcaption>
        <a href={src} download={fileName} className="button">
          {t('links.downloadQr')}
        </a>
      </figcaption>
    </figure>
  );
}
