// Saving text made in the browser (statistics as JSON or CSV) as a file.

/** Offers `text` as a download named `name`. */
export function downloadText(name: string, text: string, type: string): void {
	const url = URL.createObjectURL(new Blob([text], { type }));
	const a = document.createElement('a');
	a.href = url;
	a.download = name;
	a.rel = 'noopener';
	document.body.append(a);
	a.click();
	a.remove();
	// the click has started the download; the address is not needed after this turn
	setTimeout(() => URL.revokeObjectURL(url), 0);
}
