/**
 * A value made safe inside a double-quoted attribute of the XML-like elements tools answer with
 * (`<file path="...">`), so a file name or page title cannot end the element early.
 */
export function escapeXmlAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, "&#10;");
}
