/**
 * A one-line progress spinner on stderr, shown only on a TTY, for waits a person would otherwise
 * read as a hang (pulling an image, starting a container).
 * @module
 */

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A running spinner. */
export interface Spinner {
  /** Replace the text after the spinner. */
  update(text: string): void;
  /** Clear the line; nothing of the spinner stays on screen. */
  stop(): void;
}

/** Start a spinner on `stream` when it is a TTY; otherwise a spinner that draws nothing. */
export function startSpinner(
  text: string,
  stream: NodeJS.WriteStream = process.stderr,
  intervalMs = 80,
): Spinner {
  if (!stream.isTTY) return { update() {}, stop() {} };
  let label = text;
  let frame = 0;
  const started = Date.now();
  const draw = (): void => {
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const line = `${FRAMES[frame++ % FRAMES.length]} ${label} (${seconds}s)`;
    const width = stream.columns > 0 ? stream.columns - 1 : 79;
    stream.write(`\r\u001b[2K${line.slice(0, width)}`);
  };
  draw();
  const timer = setInterval(draw, intervalMs);
  timer.unref();
  let stopped = false;
  return {
    update(next) {
      label = next;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write('\r\u001b[2K');
    },
  };
}

/** Run `work` with a spinner showing `text`; the spinner is gone when the promise settles. */
export async function withSpinner<T>(
  text: string,
  work: () => Promise<T>,
  stream?: NodeJS.WriteStream,
): Promise<T> {
  const spinner = startSpinner(text, stream);
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
