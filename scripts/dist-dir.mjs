/** The Next.js build directory, as next.config.ts reads it. */
export const distDir = process.env.NEXT_DIST_DIR || ".next";
