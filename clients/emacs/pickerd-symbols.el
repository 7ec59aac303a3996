;;; pickerd-symbols.el --- The daemon's `symbols' text as 24-bit colour faces  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el.  On a terminal frame the picker shows the photo as the daemon's
;; `symbols' output (PROTOCOL.md, "Terminal formats"): one Unicode symbol per cell with a
;; 24-bit foreground and background (ESC [ 38;2;R;G;B ; 48;2;R;G;B m), rows separated by
;; "\n".  This file turns that text into a string whose characters carry `face' properties
;; (:foreground "#RRGGBB" :background "#RRGGBB"); Emacs draws them in 24-bit colour on a
;; terminal that has it (COLORTERM=truecolor, or a TERM such as xterm-direct), else in the
;; nearest colours the terminal has.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defconst pickerd--sgr-regexp "\e\\[\\([0-9;]*\\)m"
  "An SGR escape; group 1 is its parameters.")

(defun pickerd--sgr-colour (params)
  "The colour PARAMS (after 38 or 48) start with.
(#RRGGBB . REST), or (nil . REST) for none.
Only `2;R;G;B' gives a colour; `5;N' (256 colours) is skipped."
  (pcase params
    (`(2 ,r ,g ,b . ,rest) (cons (format "#%02x%02x%02x" (min r 255) (min g 255) (min b 255)) rest))
    (`(5 ,_ . ,rest) (cons nil rest))
    (_ (cons nil nil))))

(defun pickerd--sgr-apply (params colours)
  "COLOURS (FG . BG) after the SGR parameters PARAMS (a list of numbers)."
  (let ((fg (car colours)) (bg (cdr colours)))
    (while params
      (let ((p (pop params)))
        (pcase p
          (0 (setq fg nil bg nil))
          (39 (setq fg nil))
          (49 (setq bg nil))
          ((or 38 48)
           (let ((c (pickerd--sgr-colour params)))
             (if (= p 38) (setq fg (car c)) (setq bg (car c)))
             (setq params (cdr c)))))))
    (cons fg bg)))

(defun pickerd--symbols-face (colours cache)
  "The face plist for COLOURS (FG . BG), one per pair in CACHE (a hash table)."
  (when (or (car colours) (cdr colours))
    (or (gethash colours cache)
        (puthash (copy-tree colours)
                 (append (and (car colours) (list :foreground (car colours)))
                         (and (cdr colours) (list :background (cdr colours))))
                 cache))))

(defun pickerd-symbols-string (data)
  "DATA, the daemon's `symbols' output (UTF-8 bytes with SGR colours), as a string.
Its characters carry `face' (:foreground \"#RRGGBB\" :background \"#RRGGBB\");
the escapes are gone.  Rows stay separated by \"\\n\"."
  (let* ((text (if (multibyte-string-p data) data (decode-coding-string data 'utf-8)))
         (cache (make-hash-table :test #'equal))
         (colours (cons nil nil))
         (pos 0)
         (runs nil))
    (while (string-match pickerd--sgr-regexp text pos)
      (let* ((start (match-beginning 0)) (end (match-end 0))  ; before split-string moves them
             (params (mapcar #'string-to-number (split-string (match-string 1 text) ";"))))
        (push (pickerd--symbols-run (substring text pos start) colours cache) runs)
        (setq colours (pickerd--sgr-apply params colours)
              pos end)))
    (push (pickerd--symbols-run (substring text pos) colours cache) runs)
    (apply #'concat (nreverse runs))))

(defun pickerd--symbols-run (text colours cache)
  "TEXT with the face of COLOURS (see `pickerd--symbols-face')."
  (let ((face (pickerd--symbols-face colours cache)))
    (if (and face (not (string-empty-p text)))
        (propertize text 'face face)
      text)))

(provide 'pickerd-symbols)
;;; pickerd-symbols.el ends here
