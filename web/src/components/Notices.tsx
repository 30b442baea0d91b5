import { useAppSelector } from '../app/hooks';

/** Success notifications (each removes itself after 3400 ms). */
export function Notices() {
  const notices = useAppSelector((s) => s.notices);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className="notice" data-testid="notice">
          {n.text}
        </div>
      ))}
    </div>
  );
}
