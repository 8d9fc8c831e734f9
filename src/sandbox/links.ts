import type { ImageSet } from '../records.js';

/** Sizes the real CDN offers, per kind of image. */
const USER_SIZES = ['90x90', '60x60', '55x55', '50x50', '32x32'];
const PROJECT_SIZES = ['282x218', '216x163', '200x200', '144x108', '135x102', '100x80'];

/**
 * URLs the sandbox hands out. Images point back at the sandbox itself (`/images/...`, a tiny
 * generated SVG), so notebooks and docs render offline.
 */
export class Links {
  constructor(readonly base: string) {}

  userImage(userId: number, size = '90x90'): string {
    return `${this.base}/images/user/${userId}_${size}.svg`;
  }

  userImages(userId: number): ImageSet {
    return Object.fromEntries(USER_SIZES.map((s) => [s, this.userImage(userId, s)]));
  }

  projectImage(projectId: number, size = '480x360'): string {
    return `${this.base}/images/project/${projectId}_${size}.svg`;
  }

  projectImages(projectId: number): ImageSet {
    return Object.fromEntries(PROJECT_SIZES.map((s) => [s, this.projectImage(projectId, s)]));
  }

  studioImage(studioId: number, size = '170x100'): string {
    return `${this.base}/images/studio/${studioId}_${size}.svg`;
  }

  newsImage(newsId: number): string {
    return `${this.base}/images/news/${newsId}_300x150.svg`;
  }

  /** A page of the site (not served as HTML; links only). */
  page(path: string): string {
    return `${this.base}${path}`;
  }
}
