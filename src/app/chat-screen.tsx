/** The chat screen's frame: sidebar, centre column and settings panel. */
export function ChatScreen() {
  return (
    <div className="flex h-dvh bg-white text-gray-900 dark:bg-gray-950 dark:text-gray-100">
      <aside
        aria-label="Conversations"
        className="flex w-64 shrink-0 flex-col border-r border-gray-200 dark:border-gray-800"
      >
        <h2 className="p-4 text-lg font-semibold">Conversations</h2>
      </aside>
      <main className="flex min-w-0 flex-1 flex-col" />
      <aside aria-label="Settings" className="w-96 shrink-0 border-l border-gray-200 dark:border-gray-800">
        <h2 className="p-4 text-lg font-semibold">AI Provider Configuration</h2>
      </aside>
    </div>
  );
}
