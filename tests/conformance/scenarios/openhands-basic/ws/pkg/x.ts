export const x = 1; // PKG-SOURCE-FILE
