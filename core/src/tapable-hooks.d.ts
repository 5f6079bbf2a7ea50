// tapable's hook classes by file: its index requires every hook (CommonJS, which the bundler keeps whole),
// and the kernel uses four. The classes are tapable's own, typed by its declarations.
declare module "tapable/lib/AsyncSeriesBailHook.js" {
  import { AsyncSeriesBailHook } from "tapable";
  export = AsyncSeriesBailHook;
}
declare module "tapable/lib/AsyncSeriesHook.js" {
  import { AsyncSeriesHook } from "tapable";
  export = AsyncSeriesHook;
}
declare module "tapable/lib/AsyncSeriesWaterfallHook.js" {
  import { AsyncSeriesWaterfallHook } from "tapable";
  export = AsyncSeriesWaterfallHook;
}
declare module "tapable/lib/SyncHook.js" {
  import { SyncHook } from "tapable";
  export = SyncHook;
}
