import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback-listen';

/**
 * AWS KMS's JSON protocol (`X-Amz-Target: TrentService.<Operation>`) on loopback, for the real
 * @aws-sdk/client-kms: GenerateDataKey(WithoutPlaintext) and Decrypt with encryption contexts bound to the blob, as
 * KMS binds them. Each key id has its own master key; a blob names the key it was made under.
 */
export async function startKmsServer(keyIds: string[]) {
  const masters = new Map(keyIds.map((keyId) => [keyId, randomBytes(32)]));
  const requests: { target: string; body: string }[] = [];
  const state = { requests, throttleNext: 0 };

  const canonical = (context: Record<string, string> = {}) => JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : 1)));
  const seal = (keyId: string, plaintext: Buffer, context: Record<string, string>) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', masters.get(keyId)!, iv);
    cipher.setAAD(Buffer.from(canonical(context)));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.from(JSON.stringify({ keyId, iv: iv.toString('base64'), data: sealed.toString('base64'), tag: cipher.getAuthTag().toString('base64') }));
  };
  const open = (blob: Buffer, context: Record<string, string>): { keyId: string; plaintext: Buffer } => {
    const parsed = JSON.parse(blob.toString('utf8')) as { keyId: string; iv: string; data: string; tag: string };
    const decipher = createDecipheriv('aes-256-gcm', masters.get(parsed.keyId)!, Buffer.from(parsed.iv, 'base64'));
    decipher.setAAD(Buffer.from(canonical(context)));
    decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'));
    return { keyId: parsed.keyId, plaintext: Buffer.concat([decipher.update(Buffer.from(parsed.data, 'base64')), decipher.final()]) };
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const target = String(request.headers['x-amz-target'] ?? '');
      requests.push({ target, body });
      const answer = (status: number, payload: unknown) => {
        response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify(payload));
      };
      const error = (type: string, message: string) => answer(400, { __type: type, message });
      if (state.throttleNext > 0) {
        state.throttleNext--;
        return error('ThrottlingException', 'Rate exceeded');
      }
      const input = JSON.parse(body || '{}') as { KeyId?: string; KeySpec?: string; EncryptionContext?: Record<string, string>; CiphertextBlob?: string };
      if (target === 'TrentService.GenerateDataKey' || target === 'TrentService.GenerateDataKeyWithoutPlaintext') {
        if (!input.KeyId || !masters.has(input.KeyId)) return error('NotFoundException', `Key '${input.KeyId}' does not exist`);
        if (input.KeySpec !== 'AES_256') return error('ValidationException', 'KeySpec must be AES_256 here');
        const plaintext = randomBytes(32);
        const CiphertextBlob = seal(input.KeyId, plaintext, input.EncryptionContext ?? {}).toString('base64');
        // WithoutPlaintext: the caller stores the wrapped key and never holds it in plaintext until Decrypt.
        return answer(200, target === 'TrentService.GenerateDataKey' ? { KeyId: input.KeyId, Plaintext: plaintext.toString('base64'), CiphertextBlob } : { KeyId: input.KeyId, CiphertextBlob });
      }
      if (target === 'TrentService.Decrypt') {
        let opened: { keyId: string; plaintext: Buffer };
        try {
          opened = open(Buffer.from(input.CiphertextBlob ?? '', 'base64'), input.EncryptionContext ?? {});
        } catch {
          return error('InvalidCiphertextException', 'The ciphertext is invalid or its context does not match');
        }
        if (input.KeyId && input.KeyId !== opened.keyId) return error('IncorrectKeyException', 'The key ID in the request does not identify the key that encrypted the ciphertext');
        return answer(200, { KeyId: opened.keyId, Plaintext: opened.plaintext.toString('base64') });
      }
      return error('UnknownOperationException', target);
    });
  });
  const { endpoint, close } = await listenOnLoopback(server);
  return { endpoint, state, close };
}
