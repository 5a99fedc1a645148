// The scan engine, every search handing its files to the reading thread (see engine-suite.ts).
import { engineSuite } from "./engine-suite.js";

engineSuite({ readingThread: "always", threadMinFiles: 0 });
