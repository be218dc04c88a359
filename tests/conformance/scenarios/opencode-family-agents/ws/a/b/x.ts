export const x = 1; // FAM-AB-SOURCE
