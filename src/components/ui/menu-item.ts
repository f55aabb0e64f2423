/** A row of a small menu in a popover (the header's More, a conversation's More actions). */
export const menuItemClass =
  'flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:hover:bg-gray-800';
