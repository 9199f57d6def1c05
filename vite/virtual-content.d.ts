/** The modules the content plugin (vite/content-plugin.ts) serves. */
declare module "virtual:content" {
  /* eslint-disable @typescript-eslint/consistent-type-imports -- an ambient module may not import
     through a relative path, and an import() type is the one way to reach vite/content/types.ts. */
  export type TocEntry = import("./content/types").TocEntry;
  export type BlogPost = import("./content/types").BlogPost;
  export type LegalPage = import("./content/types").LegalPage;
  /* eslint-enable @typescript-eslint/consistent-type-imports */
  /** Every post in content/blog, newest first. */
  export const posts: readonly BlogPost[];
  /** Every page in content/legal, in file-name order. */
  export const legalPages: readonly LegalPage[];
}
