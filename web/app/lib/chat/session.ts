import { initialChatState, reduce, type ChatAction, type ChatState, type Pending } from "./machine";
import type { ChatScript } from "./compile";

export type VisitorAction = Exclude<ChatAction, { type: "deliver" }>;

// Runs the chat machine: holds its state, and keeps at most one timer, for
// the reply the bot owes while the chat is open. Closing, resetting or
// disposing stops that timer, so no message arrives in a closed or reset
// chat. Shaped for useSyncExternalStore.
export class ChatSession {
  private state: ChatState = initialChatState;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private armedFor: Pending | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly script: ChatScript,
    private readonly now: () => number = Date.now,
  ) {}

  getState = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch = (action: VisitorAction): void => this.apply(action);

  /** Stops the timer (the widget unmounts); resume() starts it again. */
  dispose(): void {
    this.disarm();
  }

  resume(): void {
    this.sync();
  }

  private apply(action: ChatAction): void {
    const previous = this.state;
    this.state = reduce(previous, action, this.now(), this.script);
    this.sync();
    if (this.state !== previous) this.listeners.forEach((l) => l());
  }

  // The timer always matches the reply owed to an open chat.
  private sync(): void {
    const wanted = this.state.open ? this.state.pending : null;
    if (wanted === this.armedFor) return;
    this.disarm();
    if (!wanted) return;
    this.armedFor = wanted;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.armedFor = null;
      this.apply({ type: "deliver", pending: wanted });
    }, wanted.delay);
  }

  private disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }
}
