import type { ProjectColor } from '../../domain/projects.ts';

/**
 * A project colour's dot, as whole class names (Tailwind finds only those written out): the
 * sidebar's row and the settings' colour field both draw these.
 */
export const projectDotClass: Record<ProjectColor, string> = {
  gray: 'bg-gray-500',
  red: 'bg-red-500',
  orange: 'bg-orange-500',
  amber: 'bg-amber-500',
  green: 'bg-green-600',
  teal: 'bg-teal-600',
  blue: 'bg-blue-600',
  violet: 'bg-violet-600',
  pink: 'bg-pink-500',
};

/** 'amber' → 'Amber': how a colour is named to the user. */
export const colorName = (color: ProjectColor): string => color.charAt(0).toUpperCase() + color.slice(1);
