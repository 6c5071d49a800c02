// The shapes the page's modules pass between them, for the TypeScript compiler's check of the page's
// JavaScript (tsconfig.json; `make lint`). Global, so a module's JSDoc names them without an import.
// The contract is docs/content.md and docs/api.md; these only name it for the checker.

/** A bar as written: its chords, or an object with its form (content schema version 2). */
type Bar = string[] | {
  chords: string[] | '%';
  durations?: number[];
  beats?: number;
  repeatStart?: boolean;
  repeatEnd?: number;
  ending?: number;
  mark?: string;
};

/** A line of words, its chords placed at code-unit offsets. */
interface Line {
  text: string;
  chords?: { at: number; chord: string }[];
}

interface Section {
  label: string;
  role?: string;
  recall?: string;
  bars: Bar[];
  lines?: Line[];
}

/** A board's content (docs/content.md). */
interface Content {
  title: string;
  description?: string;
  artist?: string;
  composer?: string;
  style?: string;
  key?: string;
  tempo?: number | null;
  beatsPerBar: number;
  sections: Section[];
}

/** A board as the server answers it: a revision of content. */
interface Board {
  id?: string;
  revision: number;
  content: Content;
  author?: string;
  proposal?: string;
}

/**
 * One edit of the musician's, as content.js applies it: a field set, a section's label or role, a
 * bar changed, inserted, removed or moved, a section inserted, removed or moved, a line of words.
 */
interface Op {
  t: string;
  s?: number;
  b?: number;
  k?: number;
  to?: number;
  field?: string;
  value?: unknown;
  chords?: string[];
  form?: object;
  section?: Section;
  line?: Line;
}

/**
 * An element the pages look up by id (dom.js byId): any of the controls the markup has there, so its
 * value, checked state, dialog methods, link and canvas size are typed without a cast at each call.
 */
type PageElement = HTMLElement &
  Partial<Pick<HTMLInputElement, 'value' | 'checked' | 'disabled' | 'files' | 'select' | 'maxLength' | 'max'>> &
  Partial<Pick<HTMLDialogElement, 'showModal' | 'close' | 'open'>> &
  Partial<Pick<HTMLAnchorElement, 'href'>> &
  Partial<Pick<HTMLCanvasElement, 'width' | 'height' | 'getContext'>>;
