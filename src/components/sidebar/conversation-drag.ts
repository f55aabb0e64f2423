/** The drag data type of a conversation row dragged onto a project: its id. */
export const draggedConversation = 'application/x-ai-chat-conversation';
