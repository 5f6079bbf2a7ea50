// The YAML parser weft reads its files with (`@weft/sdk/yaml`): core's weft.config.yaml and the skills
// pack's SKILL.md frontmatter. The build copies yaml into this one module, so an application that loads
// core and plugins loads one yaml, the way `@weft/sdk/typebox` gives every package one typebox.
export { LineCounter, isAlias, isMap, isNode, isScalar, isSeq, parseDocument, visit } from "yaml";
export type { Document, Node } from "yaml";
