/**
 * The kiosk shrinks the selfie in the browser before sending it: the server keeps at most
 * 2048 px anyway, and venue Wi-Fi is slow. 1600 px on the long side at JPEG 0.85 is a few hundred KB.
 */
export const CAPTURE_MAX_SIDE = 1600;
export const CAPTURE_QUALITY = 0.85;

export function captureFrame(video: HTMLVideoElement, maxSide = CAPTURE_MAX_SIDE): Promise<Blob> {
	const scale = Math.min(1, maxSide / Math.max(video.videoWidth, video.videoHeight));
	const canvas = document.createElement('canvas');
	canvas.width = Math.round(video.videoWidth * scale);
	canvas.height = Math.round(video.videoHeight * scale);
	const context = canvas.getContext('2d');
	if (!context) return Promise.reject(new Error('no 2d canvas'));
	// Mirror like the preview, so the guest sees the same picture they posed for.
	context.translate(canvas.width, 0);
	context.scale(-1, 1);
	context.drawImage(video, 0, 0, canvas.width, canvas.height);
	return new Promise((resolve, reject) =>
		canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('capture failed'))), 'image/jpeg', CAPTURE_QUALITY)
	);
}
