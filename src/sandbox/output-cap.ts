// Keeps the first and the last bytes of a stream and drops the middle, so a test that prints
// 200 MB costs a bounded amount of memory and the report still shows how it started and ended.

export interface CappedOutput {
  text: string;
  totalBytes: number;
  truncated: boolean;
}

export class OutputCap {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  /** A ring of recent chunks; trimmed from the front once it holds more than the tail limit. */
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(capBytes: number) {
    this.headLimit = Math.floor(capBytes / 2);
    this.tailLimit = capBytes - this.headLimit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = rest.subarray(0, this.headLimit - this.headBytes);
      this.head.push(Buffer.from(take));
      this.headBytes += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length === 0) return;
    if (rest.length >= this.tailLimit) {
      this.tail = [Buffer.from(rest.subarray(rest.length - this.tailLimit))];
      this.tailBytes = this.tailLimit;
      return;
    }
    this.tail.push(Buffer.from(rest));
    this.tailBytes += rest.length;
    while (this.tailBytes - this.tail[0]!.length >= this.tailLimit) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  /** Bytes currently held, for tests that prove memory stays bounded. */
  get heldBytes(): number {
    return this.headBytes + this.tailBytes;
  }

  result(): CappedOutput {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    const dropped = this.total - head.length - tail.length;
    if (dropped <= 0)
      return { text: Buffer.concat([head, tail]).toString('utf8'), totalBytes: this.total, truncated: false };
    const marker = `\n… [booty: ${dropped} bytes of output omitted] …\n`;
    return {
      text: head.toString('utf8') + marker + tail.toString('utf8'),
      totalBytes: this.total,
      truncated: true,
    };
  }
}

/** The last `maxChars` characters of a text, cut at a line start when one is near. */
export function tailOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(text.length - maxChars);
  const nl = cut.indexOf('\n');
  return nl >= 0 && nl < 200 ? cut.slice(nl + 1) : cut;
}
