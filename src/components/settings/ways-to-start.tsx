import { Cpu, KeyRound, Search } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';

/** A conversation opens with its message box focused: the way chosen can serve. */
const startChatting = () => void chat.newConversation().then(() => chat.focus('composer'));

function Way({ icon, action, children }: { icon: ReactNode; action: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-start gap-3">
      <span aria-hidden className="mt-1.5 text-muted-foreground">
        {icon}
      </span>
      <div className="flex min-w-0 flex-1 flex-col items-start gap-1">
        {action}
        <p className="text-xs text-muted-foreground">{children}</p>
      </div>
    </li>
  );
}

/**
 * The first run's ways to chat, in this order where each can serve: the browser's own model
 * (where it has one that can run), the model servers on this computer, an API key (the form
 * below). Each loads what it needs on the click.
 */
export function WaysToStart({ onAddKey }: { onAddKey(): void }) {
  const [browserModel, setBrowserModel] = useState(false);
  const [finding, setFinding] = useState(false);
  const [found, setFound] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void import('../../state/device-model.ts')
      .then(({ deviceModelCanServe }) => deviceModelCanServe())
      .then((canServe) => current && setBrowserModel(canServe))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, []);

  async function chooseBrowserModel() {
    const { deviceModel, switchToDeviceModel } = await import('../../state/device-model.ts');
    const refused = switchToDeviceModel(chat);
    if (refused) return setProblem(refused);
    // The click lets the browser download its model (the user's activation lasts a few seconds,
    // past this check): its progress shows in the settings.
    await deviceModel.check();
    if (deviceModel.get().phase === 'downloadable') deviceModel.download();
    startChatting();
  }

  async function findLocal() {
    setFinding(true);
    setFound([]);
    try {
      const reports = await chat.findLocalModels();
      const { describeLocalServers } = await import('../../domain/local-servers.ts');
      const first = reports.find((report) => report.connectionId !== undefined);
      const connection = first?.connectionId && chat.store.getState().connections[first.connectionId];
      if (connection && chat.saveConfiguration(connection) === null) return startChatting();
      setFound(describeLocalServers(reports, globalThis.location?.origin));
    } catch (error) {
      setFound([
        `Could not look for local models (${error instanceof Error ? error.message : String(error)}).`,
      ]);
    } finally {
      setFinding(false);
    }
  }

  return (
    <div className="mt-4 flex flex-col gap-3">
      <ul aria-label="Ways to start" className="flex flex-col gap-3">
        {browserModel && (
          <Way
            icon={<Cpu className="size-4" />}
            action={
              <Button size="sm" onClick={() => void chooseBrowserModel()}>
                Use the model in this browser
              </Button>
            }
          >
            Runs on this computer: no key, and nothing you write leaves it.
          </Way>
        )}
        <Way
          icon={<Search className="size-4" />}
          action={
            <Button size="sm" variant="outline" disabled={finding} onClick={() => void findLocal()}>
              {finding ? 'Looking for models…' : 'Find models on this computer'}
            </Button>
          }
        >
          Ollama, LM Studio, llama.cpp, Jan or vLLM, if one runs here. Chrome may ask to let this site access
          other apps and services on this device: choose Allow.
        </Way>
        <Way
          icon={<KeyRound className="size-4" />}
          action={
            <Button size="sm" variant="outline" onClick={onAddKey}>
              Add an API key
            </Button>
          }
        >
          OpenAI, Azure OpenAI, Claude, Gemini or Groq: your key stays in this browser.
        </Way>
      </ul>
      <div aria-live="polite" className="flex flex-col gap-1 text-xs">
        {found.map((line) => (
          <p key={line}>{line}</p>
        ))}
        {problem && <p className="text-red-700 dark:text-red-400">{problem}</p>}
      </div>
    </div>
  );
}
