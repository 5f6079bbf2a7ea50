// The schema builder weft's packages share (one bundled copy of typebox, from @weft/sdk/typebox).
export * from "@weft/sdk/typebox";
