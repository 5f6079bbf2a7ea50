// picomatch (CommonJS) as an ES module of this package: imported from here, its interop helpers stay in
// the lazily loaded chunk with it instead of a chunk of their own that the plugin's entry would load.
import picomatch from "picomatch";

export default picomatch;
