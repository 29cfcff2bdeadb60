/**
 * The names and limits of the selfie upload's photo rules that the web process needs without
 * loading sharp: the image work itself (photo-normalise.ts, face-check.ts) runs in the upload
 * checker process, and the web process only reads the body and maps the verdict to an answer.
 */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;

/** Why a file is not taken as a photo at all. */
export const PHOTO_PROBLEMS = ['not_an_image', 'unsupported', 'too_many_pixels', 'damaged'] as const;
export type PhotoProblem = (typeof PHOTO_PROBLEMS)[number];

/** Why a photo shows no usable face. */
export const FACE_PROBLEMS = ['no_face', 'several_faces', 'face_too_small', 'face_cut_off'] as const;
export type FaceProblem = (typeof FACE_PROBLEMS)[number];
