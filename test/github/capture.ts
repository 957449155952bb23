// A writable stream that keeps what was written, standing in for stdout/stderr.
import { Writable } from "node:stream";

export class Capture extends Writable {
  text = "";
  isTTY = false;
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}
