import { createInterface } from "node:readline";
import { SignerError } from "./lib/errors";

/** Human output (and `--json`) goes to stdout; prompts and progress of secrets to stderr. */
export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

export function stdinIsTerminal(): boolean {
  return process.stdin.isTTY === true;
}

/** Asks for a line without echoing it (the passphrase), on the terminal. */
export function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  const output = process.stderr;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: Error) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      output.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new SignerError("cancelled"));
        if (char === "\u007f" || char === "\b") value = [...value].slice(0, -1).join("");
        else if (char >= " ") value += char;
      }
    };
    output.write(question);
    input.setRawMode(true);
    input.setEncoding("utf8");
    input.on("data", onData);
    input.resume();
  });
}

/**
 * One line typed by the person: read from the terminal when standard input is one, else the
 * first line of standard input (how automation answers). `null` at end of input.
 */
export async function readLine(question: string): Promise<string | null> {
  process.stdout.write(question);
  const lines = createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
  try {
    for await (const line of lines) return line;
    return null;
  } finally {
    lines.close();
    if (!stdinIsTerminal()) process.stdout.write("\n");
  }
}

/**
 * A progress line: redrawn in place on a terminal, one line per step otherwise (logs and
 * pipes get a readable history instead of carriage returns).
 */
export function progressLine(text: string, last: boolean): void {
  if (process.stdout.isTTY) process.stdout.write(`\r\u001b[2K${text}${last ? "\n" : ""}`);
  else print(text);
}

export function ringBell(): void {
  process.stdout.write("\u0007");
}
