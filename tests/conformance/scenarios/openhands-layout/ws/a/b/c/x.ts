export const x = 1; // LAYOUT-SOURCE
