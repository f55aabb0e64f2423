import { useEffect, useState } from 'react';
import { formatBytes } from '../../domain/attachments.ts';
import { chat } from '../../state/chat.ts';
import type { StorageReport } from '../../state/chat-controller.ts';

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const amount = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : megabytes(bytes));

/** 'Storage': what this site uses of what the browser allows, whether it is kept, the largest conversations. */
export default function StorageFigures() {
  const [report, setReport] = useState<StorageReport | null>(null);
  useEffect(() => {
    let current = true;
    void chat.storageReport().then((next) => current && setReport(next));
    return () => {
      current = false;
    };
  }, []);
  if (!report) return <p className="text-xs text-muted-foreground">Measuring…</p>;
  return (
    <div className="flex flex-col gap-2 text-sm">
      {report.usage !== null && report.quota !== null && (
        <p>
          Storage: {megabytes(report.usage)} of {amount(report.quota)}
        </p>
      )}
      {report.persisted === true && (
        <p className="text-xs text-muted-foreground">Kept: the browser will not clear it to make room.</p>
      )}
      {report.persisted === false && (
        <p className="text-xs text-amber-800 dark:text-amber-300">
          The browser may clear it when space runs low: export a copy now and then.
        </p>
      )}
      {report.largest.length > 0 && (
        <>
          <p className="text-xs font-medium">Largest conversations</p>
          <ol aria-label="Largest conversations" className="flex flex-col gap-0.5 text-xs">
            {report.largest.map((item) => (
              <li key={item.id} className="flex justify-between gap-2">
                <span className="truncate">{item.name}</span>
                <span className="shrink-0 text-muted-foreground tabular-nums">{formatBytes(item.bytes)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
