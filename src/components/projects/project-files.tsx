import { Paperclip } from 'lucide-react';
import { attachmentAccept } from '../../domain/attachments.ts';
import { useId, useRef } from 'react';
import { projectLimits, type Project } from '../../domain/projects.ts';
import { chat } from '../../state/chat.ts';
import { FileChip } from '../chat/file-chip.tsx';
import { Button } from '../ui/button.tsx';
import { describeEstimate, describeMeasure, estimateTokens, mayNotFit } from './project-tokens.ts';
import { projectFingerprint } from '../../domain/project-rules.ts';
import type { ProjectModel } from './use-project-model.ts';

/** 'Files': sent with every request of the project's conversations, with what they may cost. */
export function ProjectFiles({ project, target }: { project: Project; target: ProjectModel }) {
  const picker = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const { files } = project;
  const tokens = estimateTokens(files);
  // The provider's count, while the instructions and files are those it counted.
  const measured = project.measured?.of === projectFingerprint(project) ? project.measured : undefined;
  const sameModel = measured?.model === target.model;
  const full = files.length >= projectLimits.files;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-medium text-gray-700 dark:text-gray-300">
          Files
        </h3>
        <input
          ref={picker}
          type="file"
          multiple
          accept={attachmentAccept}
          hidden
          onChange={(event) => {
            void chat.addProjectFiles(project.id, [...(event.target.files ?? [])]);
            // The same file may be picked again after it was removed.
            event.target.value = '';
          }}
        />
        <Button variant="outline" size="sm" disabled={full} onClick={() => picker.current?.click()}>
          <Paperclip aria-hidden /> Add files
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        Sent with every message of this project&apos;s conversations. {files.length} of {projectLimits.files}{' '}
        files.
      </p>
      {measured && <p className="text-xs text-faint-foreground">{describeMeasure(measured, target)}</p>}
      {files.length > 0 && (
        <>
          <ul aria-label="Project files" className="flex flex-wrap gap-2">
            {files.map((file) => (
              <FileChip
                key={file.id}
                name={file.name}
                size={file.size}
                kind={file.kind}
                image={file.kind === 'image' ? { attachmentId: file.id } : null}
                onRemove={() => void chat.removeProjectFile(project.id, file.id)}
              />
            ))}
          </ul>
          <p className="text-xs text-faint-foreground">
            {describeEstimate(tokens, target.model, target.contextWindow)}
          </p>
          {mayNotFit(measured && sameModel ? measured.tokens : tokens, target.contextWindow) && (
            <p role="alert" className="text-xs text-amber-800 dark:text-amber-300">
              These files may not fit in {target.model}&apos;s context window.
            </p>
          )}
        </>
      )}
    </section>
  );
}
