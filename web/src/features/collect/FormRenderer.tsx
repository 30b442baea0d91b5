// The form a collector fills, with packages/sampler live: conditions show, maybe or skip categories and questions;
// calculations recompute when a dependency is answered; concatenations on every change; the validity message.
// Geotags follow the location settings of spec 001 §9; images and signatures are kept on the device until upload.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  calculate,
  concatenate,
  offeredChoices,
  text,
  withoutUnoffered,
  type Answers,
  type Block,
  type Item,
  type SchemaBody,
  type Visibility,
} from '@fieldwork/sampler';
import { localStore } from './localStore';
import { translateKnown } from '../../i18n/known';

/** Spec 001 §9: location request timeout 30000 ms, maximum age 10000 ms; accuracy threshold 50 m. */
export const LOCATION = { timeout: 30_000, maximumAge: 10_000, accuracy: 50 } as const;

export interface GeotagValue {
  type: 'Point';
  coordinates: [number, number];
  accuracy?: number;
}

/** Whether a number question's answer cannot be negative (an active minimum of 0 or more). */
export function nonNegative(o: { minimum?: { active: boolean; value: number | string } }): boolean {
  return !!o.minimum?.active && o.minimum.value !== '' && Number(o.minimum.value) >= 0;
}

export function FormRenderer(props: {
  body: SchemaBody;
  lang: string;
  answers: Answers;
  /**
   * An answer changed: `update` makes the new answers from the latest ones (a location or a photo arrives seconds
   * after it was asked for, when other answers may have changed), `itemId` says which question.
   */
  onChange: (update: (answers: Answers) => Answers, itemId: number) => void;
  shown: { blocks: Map<number, Visibility>; items: Map<number, Visibility> };
  /** The message at each question that needs attention, by item id. */
  problems: Map<number, string>;
  readOnly?: boolean;
  /** The builder's preview: files and locations are not asked for. */
  preview?: boolean;
  responseId: string;
  projectId: number;
}) {
  const { body, lang, answers, shown, readOnly } = props;
  // Cascading choices: an answer its filter question's new answer no longer offers is cleared with the change.
  const set = (id: number, v: unknown) => props.onChange((a) => withoutUnoffered(body, { ...a, [id]: v }), id);
  const update = (id: number, fn: (previous: unknown) => unknown) =>
    props.onChange((a) => withoutUnoffered(body, { ...a, [id]: fn(a[id]) }), id);

  const renderBlock = (b: Block, depth: number) => {
    const vis = shown.blocks.get(b.id);
    if (b.deleted || vis === 'skipped') return null;
    return (
      <fieldset
        key={b.id}
        className={`form-block depth-${depth}${vis === 'maybe' ? ' maybe' : ''}`}
        data-testid="form-block"
      >
        {text(b.name, lang) !== '' && <legend>{text(b.name, lang, body.primary_language)}</legend>}
        {b.entities.map((ref) => {
          if (ref.type === 'block') {
            const child = body.entities.blocks[ref.id];
            return child ? renderBlock(child, depth + 1) : null;
          }
          const item = body.entities.items[ref.id];
          if (!item || item.deleted) return null;
          return (
            <Question
              key={item.id}
              item={item}
              body={body}
              lang={lang}
              answers={answers}
              value={answers[String(item.id)]}
              set={(v) => set(item.id, v)}
              update={(fn) => update(item.id, fn)}
              problem={props.problems.get(item.id)}
              readOnly={readOnly === true}
              preview={props.preview === true}
              responseId={props.responseId}
              projectId={props.projectId}
            />
          );
        })}
      </fieldset>
    );
  };
  return (
    <div className="form-renderer">
      {body.form.map((id) => (body.entities.blocks[id] ? renderBlock(body.entities.blocks[id], 0) : null))}
    </div>
  );
}

function Question(p: {
  item: Item;
  body: SchemaBody;
  lang: string;
  answers: Answers;
  value: unknown;
  set: (v: unknown) => void;
  update: (fn: (previous: unknown) => unknown) => void;
  problem: string | undefined;
  readOnly: boolean;
  preview: boolean;
  responseId: string;
  projectId: number;
}) {
  const { t } = useTranslation();
  const { item, body, lang, value, set, readOnly } = p;
  const label = text(item.name, lang, body.primary_language);
  const o = item.options;
  const inputId = `q${item.id}-input`;
  const errorId = `q${item.id}-error`;
  // What every answer control carries: its label, and its message when it needs attention.
  const a11y = {
    id: inputId,
    'aria-invalid': p.problem !== undefined,
    'aria-describedby': p.problem !== undefined ? errorId : undefined,
  };
  let input: React.ReactNode;
  switch (item.type) {
    case 'instruction':
      return <p className="instruction">{text(item.instruction, lang, body.primary_language)}</p>;
    case 'empty':
      return null;
    case 'choice':
    case 'binary': {
      const chosen = Array.isArray(value) ? (value as number[]) : [];
      // Cascading choices: only the choices the filter question's answer offers (every choice without a filter).
      const offered = offeredChoices(body, item, p.answers);
      const filter = item.type === 'choice' ? o.choiceFilter : undefined;
      const waiting = filter !== undefined && offered.length === 0 && !readOnly;
      input = waiting ? (
        <p className="muted" data-testid="cascade-waiting">
          {t('collect.cascade.waiting', {
            question: text(body.entities.items[filter.itemId]?.name, lang, body.primary_language),
          })}
        </p>
      ) : (
        offered.map((c) => (
          <label key={c} className="check choice-option">
            <input
              type={o.multiselect ? 'checkbox' : 'radio'}
              name={`q${item.id}`}
              disabled={readOnly}
              checked={chosen.includes(c)}
              onChange={(e) => {
                const on = e.target.checked;
                // From the answer as it is now, not as it was drawn: quick taps on several choices all count.
                p.update((prev) => {
                  const now = Array.isArray(prev) ? (prev as number[]) : [];
                  return o.multiselect ? (on ? [...now.filter((x) => x !== c), c] : now.filter((x) => x !== c)) : [c];
                });
              }}
            />
            {text(body.entities.choices[c]?.name, lang, body.primary_language)}
          </label>
        ))
      );
      break;
    }
    case 'number':
    case 'currency':
      input = (
        <input
          {...a11y}
          type="number"
          // The phone's number pad (digits; a decimal separator when decimals are allowed) only when the answer
          // cannot be negative: iOS's pads have no minus sign, so a question that takes negative numbers (a
          // temperature, a balance) keeps the keyboard type="number" gives, which has one.
          inputMode={nonNegative(o) ? (o.allowDecimal === false ? 'numeric' : 'decimal') : undefined}
          step={o.allowDecimal === false ? 1 : 'any'}
          min={o.minimum?.active && o.minimum.value !== '' ? Number(o.minimum.value) : undefined}
          max={o.maximum?.active && o.maximum.value !== '' ? Number(o.maximum.value) : undefined}
          disabled={readOnly}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(e) => set(e.target.value === '' ? null : Number(e.target.value))}
        />
      );
      break;
    case 'date':
      input = (
        <input
          {...a11y}
          type="date"
          min={
            o.minimum?.active && typeof o.minimum.value === 'string' && o.minimum.value !== ''
              ? o.minimum.value
              : undefined
          }
          max={
            o.maximum?.active && typeof o.maximum.value === 'string' && o.maximum.value !== ''
              ? o.maximum.value
              : undefined
          }
          disabled={readOnly}
          value={String(value ?? '')}
          onChange={(e) => set(e.target.value)}
        />
      );
      break;
    case 'calculated': {
      if (o.showInForm === false) return null;
      const r = calculate(body, item.id, p.answers, lang);
      // No formula yet: nothing is calculated and nothing is said.
      input =
        r === null ? (
          <output data-testid="calculated" />
        ) : 'value' in r ? (
          <output data-testid="calculated">{r.value}</output>
        ) : (
          <span className="muted">{translateKnown(r.error)}</span>
        );
      break;
    }
    case 'concatenation': {
      const r = concatenate(body, o.concatenation ?? '', p.answers, lang);
      input =
        'value' in r ? (
          <output data-testid="concatenation">{r.value}</output>
        ) : (
          <span className="muted">{translateKnown(r.error)}</span>
        );
      break;
    }
    case 'geotag':
    case 'image':
    case 'signature':
      if (p.preview) {
        input = <span className="muted">{t(`builder.types.${item.type}`)}</span>;
        break;
      }
      input =
        item.type === 'geotag' ? (
          <GeotagInput value={value as GeotagValue | undefined} set={set} readOnly={readOnly} />
        ) : (
          <MediaInput
            kind={item.type}
            value={value as string | undefined}
            set={set}
            readOnly={readOnly}
            responseId={p.responseId}
            projectId={p.projectId}
          />
        );
      break;
    case 'barcode':
      input = <BarcodeInput a11y={a11y} value={value as string | undefined} set={set} readOnly={readOnly} />;
      break;
    default:
      input = <input {...a11y} disabled={readOnly} value={String(value ?? '')} onChange={(e) => set(e.target.value)} />;
  }
  const required = o.isRequiredQuestion === true || o.isPrimaryKey === true;
  // One control takes the question as its label; a group of choices (or a file, a location) is labelled as a group.
  const single = ['number', 'currency', 'date', 'open', 'barcode', 'reference_project'].includes(item.type);
  const title = (
    <>
      {label}
      {required && (
        <span className="required" title={t('collect.required')}>
          {' '}
          *
        </span>
      )}
    </>
  );
  return (
    <div
      className={`form-question${p.problem !== undefined ? ' invalid' : ''}`}
      data-testid="form-question"
      data-item={item.id}
      id={`q${item.id}`}
    >
      {single ? (
        <label className="question-label" htmlFor={inputId}>
          {title}
        </label>
      ) : (
        <div className="question-label" id={`q${item.id}-label`}>
          {title}
        </div>
      )}
      <div
        className="question-input"
        {...(single
          ? {}
          : {
              role: 'group',
              'aria-labelledby': `q${item.id}-label`,
              'aria-describedby': a11y['aria-describedby'],
              tabIndex: -1,
              id: inputId,
            })}
      >
        {input}
      </div>
      {p.problem !== undefined && (
        <p className="field-error" id={errorId} data-testid="question-error">
          {translateKnown(p.problem)}
        </p>
      )}
    </div>
  );
}

function GeotagInput({
  value,
  set,
  readOnly,
}: {
  value: GeotagValue | undefined;
  set: (v: unknown) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const [status, setStatus] = useState('');
  const locate = () => {
    if (!('geolocation' in navigator)) return setStatus(t('collect.geo.unavailable'));
    setStatus(t('collect.geo.locating'));
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        const g: GeotagValue = {
          type: 'Point',
          coordinates: [pos.coords.longitude, pos.coords.latitude],
          accuracy: pos.coords.accuracy,
        };
        set(g);
        setStatus(
          pos.coords.accuracy > LOCATION.accuracy
            ? t('collect.geo.inaccurate', { m: Math.round(pos.coords.accuracy) })
            : '',
        );
      },
      (err) => setStatus(err.code === err.PERMISSION_DENIED ? t('collect.geo.denied') : t('collect.geo.failed')),
      { enableHighAccuracy: true, timeout: LOCATION.timeout, maximumAge: LOCATION.maximumAge },
    );
  };
  return (
    <span className="geotag-input">
      {value ? (
        <code>{`${value.coordinates[1].toFixed(6)}, ${value.coordinates[0].toFixed(6)}`}</code>
      ) : (
        <span className="muted">{t('collect.geo.none')}</span>
      )}
      {!readOnly && (
        <button type="button" onClick={locate}>
          {t('collect.geo.record')}
        </button>
      )}
      {status && <span className="muted"> {status}</span>}
    </span>
  );
}

/** The local placeholder or the stored key of a file, shown as a thumbnail when it is still on the device. */
function MediaInput(p: {
  kind: 'image' | 'signature';
  value: string | undefined;
  set: (v: unknown) => void;
  readOnly: boolean;
  responseId: string;
  projectId: number;
}) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<string | undefined>();
  useEffect(() => {
    let url: string | undefined;
    if (p.value?.startsWith('local:')) {
      void localStore.media(p.value).then((m) => {
        if (m) setPreview((url = URL.createObjectURL(m.blob)));
      });
    } else setPreview(undefined);
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [p.value]);
  const keep = async (blob: Blob, filename: string) => {
    const localKey = `local:${crypto.randomUUID()}`;
    await localStore.addMedia({
      local_key: localKey,
      response_id: p.responseId,
      project: p.projectId,
      kind: p.kind,
      filename,
      blob,
    });
    p.set(localKey);
  };
  return (
    <span className="media-input">
      {preview && <img src={preview} alt="" width={100} height={100} className="thumb" />}
      {p.value && !preview && <span className="muted">{t('collect.media.uploaded')}</span>}
      {!p.readOnly &&
        (p.kind === 'image' ? (
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp"
            capture="environment"
            data-testid="image-input"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void keep(f, f.name);
            }}
          />
        ) : (
          <SignaturePad onDone={(b) => void keep(b, 'signature.png')} />
        ))}
    </span>
  );
}

function SignaturePad({ onDone }: { onDone: (png: Blob) => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    // The canvas may be drawn narrower than its 300 px on a small screen: back to its own pixels.
    const c = e.currentTarget;
    const r = c.getBoundingClientRect();
    return [((e.clientX - r.left) * c.width) / r.width, ((e.clientY - r.top) * c.height) / r.height] as const;
  };
  return (
    <span className="signature">
      <canvas
        ref={ref}
        width={300}
        height={120}
        data-testid="signature-pad"
        onPointerDown={(e) => {
          drawing.current = true;
          const ctx = e.currentTarget.getContext('2d')!;
          ctx.beginPath();
          ctx.moveTo(...point(e));
        }}
        onPointerMove={(e) => {
          if (!drawing.current) return;
          const ctx = e.currentTarget.getContext('2d')!;
          ctx.lineTo(...point(e));
          ctx.stroke();
        }}
        onPointerUp={() => (drawing.current = false)}
      />
      <button type="button" onClick={() => ref.current?.toBlob((b) => b && onDone(b), 'image/png')}>
        {t('collect.media.keepSignature')}
      </button>
      <button type="button" className="link" onClick={() => ref.current?.getContext('2d')?.clearRect(0, 0, 300, 120)}>
        {t('collect.media.clear')}
      </button>
    </span>
  );
}

interface Detector {
  detect: (source: ImageBitmapSource) => Promise<{ rawValue: string }[]>;
}

/** Barcode entry: typed, or read from a photo where the browser has a BarcodeDetector. */
function BarcodeInput({
  a11y,
  value,
  set,
  readOnly,
}: {
  a11y: Record<string, unknown>;
  value: string | undefined;
  set: (v: unknown) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const Ctor = (globalThis as { BarcodeDetector?: new () => Detector }).BarcodeDetector;
  return (
    <span className="barcode-input">
      <input
        {...a11y}
        disabled={readOnly}
        value={value ?? ''}
        placeholder={t('collect.barcode.placeholder')}
        onChange={(e) => set(e.target.value)}
      />
      {Ctor && !readOnly && (
        <input
          type="file"
          accept="image/*"
          capture="environment"
          aria-label={t('collect.barcode.scan')}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (!f) return;
            void createImageBitmap(f)
              .then((bmp) => new Ctor().detect(bmp))
              .then((codes) => codes[0] && set(codes[0].rawValue));
          }}
        />
      )}
    </span>
  );
}
