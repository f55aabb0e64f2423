import { useId } from 'react';
import { projectColors, type Project, type ProjectColor } from '../../domain/projects.ts';
import { cn } from '../../lib/cn.ts';
import { chat } from '../../state/chat.ts';
import { colorName, projectDotClass } from './project-colors.ts';

const choices: { value: ProjectColor | undefined; label: string; dot: string }[] = [
  // 'None' is an empty ring: the sidebar shows no dot.
  { value: undefined, label: 'None', dot: 'border border-dashed border-gray-400 dark:border-gray-500' },
  ...projectColors.map((color) => ({ value: color, label: colorName(color), dot: projectDotClass[color] })),
];

/** 'Colour': native radios, so arrow keys move between them, each drawn as a dot; saved as it is chosen. */
export function ProjectColourField({ project }: { project: Project }) {
  const name = useId();
  const labelId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <span id={labelId} className="text-sm font-medium text-gray-700 dark:text-gray-300">
        Colour
      </span>
      <div role="radiogroup" aria-labelledby={labelId} className="flex flex-wrap items-center gap-1">
        {choices.map(({ value, label, dot }) => (
          // The radio itself is the dot (no hidden input under a picture), with room around it to hit.
          <span key={label} className="flex size-8 items-center justify-center">
            <input
              type="radio"
              name={name}
              aria-label={label}
              title={label}
              checked={project.color === value}
              onChange={() => void chat.changeProject(project.id, { color: value })}
              className={cn(
                'size-5 cursor-pointer appearance-none rounded-full ring-offset-2 ring-offset-white checked:ring-2 checked:ring-gray-900 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500 dark:ring-offset-gray-900 dark:checked:ring-gray-100',
                dot,
              )}
            />
          </span>
        ))}
      </div>
    </div>
  );
}
