import type { ImageSet } from '../../records/records.js';

/** Sizes the real CDN offers, per kind of image. */
const USER_SIZES = ['90x90', '60x60', '55x55', '50x50', '32x32'];
const PROJECT_SIZES = ['282x218', '216x163', '200x200', '144x108', '135x102', '100x80'];
/** A class's sizes, as a captured `{api}/classrooms/<id>` answer lists them (test/fixtures/captured). */
const CLASSROOM_SIZES = ['250x150', '170x100', '150x85', '75x55'];

/**
 * URLs the sandbox hands out. Images have the real CDN's shape
 * (`/get_image/project/<id>_480x360.png`, WIRE.md §10) but point back at the sandbox itself, which
 * generates a small PNG, so notebooks and docs render offline.
 */
export class Links {
  constructor(readonly base: string) {}

  userImage(userId: number, size = '90x90'): string {
    return `${this.base}/get_image/user/${userId}_${size}.png`;
  }

  userImages(userId: number): ImageSet {
    return Object.fromEntries(USER_SIZES.map((s) => [s, this.userImage(userId, s)]));
  }

  projectImage(projectId: number, size = '480x360'): string {
    return `${this.base}/get_image/project/${projectId}_${size}.png`;
  }

  projectImages(projectId: number): ImageSet {
    return Object.fromEntries(PROJECT_SIZES.map((s) => [s, this.projectImage(projectId, s)]));
  }

  studioImage(studioId: number, size = '170x100'): string {
    return `${this.base}/get_image/gallery/${studioId}_${size}.png`;
  }

  classroomImages(classId: number): ImageSet {
    return Object.fromEntries(
      CLASSROOM_SIZES.map((s) => [s, `${this.base}/get_image/classroom/${classId}_${s}.png`]),
    );
  }

  newsImage(newsId: string): string {
    return `${this.base}/get_image/news/${newsId}_300x150.png`;
  }

  /**
   * A URL without its scheme (`//host:port/...`), as `/session/` and `/proxy/featured` send their
   * image URLs (WIRE.md §10).
   */
  protocolRelative(url: string): string {
    return url.replace(/^[a-z]+:/, '');
  }

  /** A page of the site (not served as HTML; links only). */
  page(path: string): string {
    return `${this.base}${path}`;
  }
}
