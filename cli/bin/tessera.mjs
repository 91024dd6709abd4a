#!/usr/bin/env node
// The `tessera` binary: runs the built command line (npm run build).
import '../dist/main.js';
