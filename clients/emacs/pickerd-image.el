;;; pickerd-image.el --- The picker's image pane: a picture in every Emacs  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el.  On a graphic frame the current photo is a PNG fitted to the pane's
;; pixels; on a terminal frame (`emacs -nw') it is the daemon's `symbols' text fitted to the
;; pane's columns and rows, drawn with 24-bit colour faces (pickerd-symbols.el).  Terminal
;; panes are never measured in pixels: the request carries the window's cells, and the
;; session's pane is those cells at the daemon's own cell size (8 x 16 px, PROTOCOL.md
;; "Terminal formats"), so the picture the symbols are drawn from has a pixel for each one.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pickerd)
(require 'pickerd-symbols)

(defconst pickerd--cell-pixels '(8 . 16)
  "The daemon's cell, in pixels, that `symbols' fits a picture into.")

(defun pickerd-image-terminal-p (window)
  "Non-nil when WINDOW's frame cannot show images (a terminal frame)."
  (not (display-images-p (window-frame window))))

(defun pickerd-image-cells (window)
  "WINDOW's body as (COLS . ROWS), each 1...1000.
One column is left free: a terminal Emacs uses the last one for the
continuation glyph, and a full row would wrap."
  (cons (max 1 (min 1000 (1- (window-body-width window))))
        (max 1 (min 1000 (window-body-height window)))))

(defun pickerd-image-pane-size (window)
  "The session's pane for WINDOW in pixels, within the protocol's 16...8192.
A graphic WINDOW's body pixels; a terminal WINDOW's cells at the daemon's
cell size (see `pickerd--cell-pixels')."
  (let ((size (if (pickerd-image-terminal-p window)
                  (let ((cells (pickerd-image-cells window)))
                    (cons (* (car cells) (car pickerd--cell-pixels))
                          (* (cdr cells) (cdr pickerd--cell-pixels))))
                (cons (window-body-width window t) (window-body-height window t)))))
    (cons (max 16 (min 8192 (car size))) (max 16 (min 8192 (cdr size))))))

(defun pickerd-image-request (window)
  "The getImage fields (without the session) that suit WINDOW, and the format.
\(FIELDS . FORMAT): symbols with WINDOW's cells on a terminal, else a PNG."
  (if (pickerd-image-terminal-p window)
      (let ((cells (pickerd-image-cells window)))
        (cons `((format . 7) (quality . 0) (flags . 2)
                (cells (cols . ,(car cells)) (rows . ,(cdr cells))))
              'symbols))
    (cons '((format . 2) (quality . 0) (flags . 0)) 'png)))

(defun pickerd-image-use-narrow-symbols ()
  "Make the current buffer count the symbols' characters as one column each.
Emacs 28 gives the Symbols for Legacy Computing block (U+1FB00...U+1FBFF,
the sextants of `symbols') two columns, as it does emoji; terminals and the
daemon draw them in one, and a row would wrap or misalign."
  (let ((table (copy-sequence char-width-table)))
    (set-char-table-range table '(#x1FB00 . #x1FBFF) 1)
    (setq-local char-width-table table)))

(defun pickerd-image--centred (image window)
  "IMAGE with margins that put it in the middle of WINDOW's body.
The daemon fits the picture to the body: one pair of margins is near zero."
  (let* ((size (image-size image t))
         (dx (max 0 (/ (- (window-body-width window t) (car size)) 2)))
         (dy (max 0 (/ (- (window-body-height window t) (cdr size)) 2))))
    (if (or (> dx 0) (> dy 0)) (append image (list :margin (cons dx dy))) image)))

(defun pickerd-image-insert (format data &optional window)
  "Insert DATA (the reply's bytes) of FORMAT (`png' or `symbols') at point.
A picture is centred in WINDOW's body when WINDOW is given."
  (pcase format
    ('symbols (insert (pickerd-symbols-string data)))
    ((guard (and (display-images-p) (create-image data 'png t)))
     (let ((image (create-image data 'png t)))
       (insert-image (if (window-live-p window) (pickerd-image--centred image window) image))))
    (_ (let ((size (pickerd-png-size data)))
         (insert (format "[PNG %dx%d, %d bytes: this display shows no images]"
                         (or (car size) 0) (or (cdr size) 0) (length data)))))))

(defun pickerd-image-draw (buffer format data &optional note)
  "Fill BUFFER with the picture DATA of FORMAT, or NOTE when DATA is nil."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (if data (pickerd-image-insert format data (get-buffer-window buffer))
          (insert (or note "(no photo selected)")))
        (goto-char (point-min))))))

(provide 'pickerd-image)
;;; pickerd-image.el ends here
