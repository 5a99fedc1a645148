// The scan engine, reading in the main thread (see engine-suite.ts).
import { engineSuite } from "./engine-suite.js";

engineSuite({ readingThread: "never" });
