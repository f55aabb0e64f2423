import { setState, type ChatState } from './chat-store.ts';

export function setImportExportOpen(open: boolean): void {
  setState({ importExportOpen: open });
}

export function setSheet(sheet: ChatState['sheet']): void {
  setState({ sheet });
}
