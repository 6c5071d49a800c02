// What the bridge (pi/tele.js) imports from Pi, for the TypeScript compiler's check: Pi's own types are
// not installed here (the probes install Pi under e2e/pi), and the bridge uses only its version.
declare module '@mariozechner/pi-coding-agent' {
  export const VERSION: string;
}

/** The tele_board tool, baked in from Go as an object literal (assets/pitool.go). */
declare const __TELE_TOOL__: { name: string; label: string; description: string; [more: string]: unknown };
