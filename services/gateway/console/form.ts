// Reading a console form: application/x-www-form-urlencoded only, at most
// MAX_FORM_BYTES (413 beyond, without reading the rest), each field once.
import type { IncomingMessage } from "node:http";

export const MAX_FORM_BYTES = 4096;

export class FormError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

export async function readForm(req: IncomingMessage): Promise<Map<string, string>> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new FormError(415, "forms are application/x-www-form-urlencoded");
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > MAX_FORM_BYTES) throw new FormError(413, `a form is at most ${MAX_FORM_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new FormError(413, `a form is at most ${MAX_FORM_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.includes("\uFFFD")) throw new FormError(400, "the form is not UTF-8");
  const fields = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(text)) {
    if (fields.has(k)) throw new FormError(400, `field ${k.slice(0, 40)} given twice`);
    fields.set(k, v);
  }
  return fields;
}
