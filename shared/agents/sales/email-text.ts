/**
 * Text hygiene for outreach emails. The draft's `to` and `subject` become mail headers when the
 * service sends the approved action, so they must never carry a line break (header injection);
 * the body is plain text with `\n` line ends.
 */

// C0 controls (CR and LF included), DEL, C1 controls and the Unicode line/paragraph separators.
const headerBreaking = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const bodyControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** One line, safe as a header value: every control character run becomes one space, spaces collapse. */
export function singleLine(value: string): string {
  return value.replace(headerBreaking, ' ').replace(/ {2,}/g, ' ').trim();
}

/** An email address as a header value: no controls and no whitespace at all. */
export function bareAddress(value: string): string {
  return value.replace(headerBreaking, '').replace(/\s+/g, '').trim();
}

/** Plain-text paragraph content: line ends normalised to `\n`, other control characters dropped. */
export function plainText(value: string): string {
  return value
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(bodyControls, '')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/** Ends a sentence with a full stop unless it already ends in punctuation. */
export function asSentence(value: string): string {
  return /[.!?…:)"'»]$/.test(value) ? value : `${value}.`;
}

/** `Raised a Series C round` → `raised a Series C round`; leaves acronyms (`EU AI Act`) alone. */
export function lowerFirst(value: string): string {
  return /^[A-Z][a-z]/.test(value) ? value[0].toLowerCase() + value.slice(1) : value;
}

/** `Mia de Vries` → `Mia`. */
export function firstName(fullName: string): string {
  return fullName.split(' ')[0] || fullName;
}
