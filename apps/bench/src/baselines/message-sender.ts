/** Something that durably sends one message per call to a single recipient. */
export interface MessageSender {
  /** Sends message number `index` and resolves once it is as durable as the design promises. */
  send(index: number): Promise<void>;
  close(): Promise<void>;
}

/** Where and as whom a sender writes. */
export interface SenderOptions {
  /** The folder that holds the recipient's inbox (or database). */
  folder: string;
  /** The sending member's name, distinct per writer process. */
  sender: string;
  /** The receiving member's name. */
  recipient: string;
}
