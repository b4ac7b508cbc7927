/** Small files whose first bytes say what they are, for upload tests. */
export function pdfBytes(text = 'hello'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
  );
}

export function pngBytes(): Buffer {
  return Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
}

export const htmlBytes = () =>
  Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

/** A multipart body with one `file` part and text fields, as a browser's FormData sends it. */
export function formOf(
  file: { bytes: Buffer; name: string; type?: string } | undefined,
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    form.append(
      'file',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  return form;
}
