export const x = 2; // FAM-CD-SOURCE
