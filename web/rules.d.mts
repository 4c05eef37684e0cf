// The types of rules.mjs, for the unit tests.
export declare const RULES_GAMES: string[];
export declare const RULES_LANGUAGES: string[];
export declare function rulesSource(rulesDir: string, language: string, game: string): string;
export declare function pageHref(href: string, kind: 'link' | 'image'): string;
export declare function renderRules(markdown: string): string;
export declare function buildRules(rulesDir: string, outDir: string): Promise<void>;
