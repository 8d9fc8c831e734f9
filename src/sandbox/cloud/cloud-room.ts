/**
 * The connections of one project, and the sets forwarded to them during the current tick.
 *
 * Fan-out works as the alternate server's does, one step further: each set is serialized once,
 * queued in its room, and at the end of a short tick every member gets one frame holding every
 * line of the tick except its own (WIRE.md §5: a frame may hold several `\n`-joined lines). Members
 * that sent nothing and joined before the tick share one UTF-8 encoded frame, which the server
 * writes to each of them as a text frame, so the per-receiver cost is a socket write, with no
 * JSON, string or encoding work.
 */
import type { WebSocket } from 'ws';

/** What a room needs of a connection. */
export interface RoomMember {
  readonly ws: WebSocket;
  /** Index of the first line of the current tick it receives (it joined after the others). */
  mark: number;
  /** It sent a line during the current tick (it must not get that line back). */
  sentInTick: boolean;
}

export class CloudRoom<M extends RoomMember> {
  readonly members = new Set<M>();
  /**
   * The frame of current values sent after a handshake, shared by every handshake until the
   * project changes (`null` for a project without values), and the project version it shows.
   */
  snapshot: Buffer | null = null;
  snapshotVersion = -1;
  readonly #lines: string[] = [];
  readonly #senders: M[] = [];
  #bytes = 0;

  /** Characters queued in the current tick. */
  get pendingBytes(): number {
    return this.#bytes;
  }

  join(member: M): void {
    member.mark = this.#lines.length;
    member.sentInTick = false;
    this.members.add(member);
  }

  /** Takes a member out; true when the room is now empty. */
  leave(member: M): boolean {
    this.members.delete(member);
    return this.members.size === 0;
  }

  /**
   * Queues a line `sender` sent for the other members. Returns true when it is the tick's first
   * line (the caller schedules a flush); a room where nobody else listens queues nothing.
   */
  queue(sender: M, line: string): boolean {
    if (this.members.size < 2) return false;
    sender.sentInTick = true;
    this.#lines.push(line);
    this.#senders.push(sender);
    this.#bytes += line.length;
    return this.#lines.length === 1;
  }

  /** Hands every member its frame of the tick (if it has one) and starts a new tick. */
  flush(send: (member: M, frame: Buffer | string) => void): void {
    const lines = this.#lines;
    if (lines.length === 0) return;
    let shared: Buffer | undefined;
    for (const member of this.members) {
      const { mark, sentInTick } = member;
      member.mark = 0;
      member.sentInTick = false;
      if (mark === 0 && !sentInTick) {
        shared ??= Buffer.from(lines.join('\n'));
        send(member, shared);
        continue;
      }
      const own: string[] = [];
      for (let i = mark; i < lines.length; i++) if (this.#senders[i] !== member) own.push(lines[i]!);
      if (own.length > 0) send(member, own.join('\n'));
    }
    lines.length = 0;
    this.#senders.length = 0;
    this.#bytes = 0;
  }
}
