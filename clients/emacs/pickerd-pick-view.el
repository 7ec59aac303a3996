;;; pickerd-pick-view.el --- The picker's album and photo lists, drawn  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el (loaded by pickerd-pick.el).  The album and photo lists
;; as text: pick numbers, names cut to the pane with an ellipsis, key hints in the header line.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pickerd)
(require 'pickerd-picker)

(defconst pickerd--key-hints
  '((pickerd-albums-mode . "RET open  TAB photos  g reload  q quit")
    (pickerd-photos-mode . "SPC pick  RET insert  n/p move  TAB albums  q quit"))
  "The keys shown in each pane's header line.")

(defun pickerd--header-line ()
  "Title and key hints left, message right (seed 002's labels)."
  (when pickerd--picker
    (let* ((state (pickerd-picker-state pickerd--picker))
           (hints (alist-get major-mode pickerd--key-hints))
           (message (alist-get 'message state "")))
      (concat " " (alist-get 'title state "")
              (if hints (concat "  " (propertize hints 'face 'shadow)) "")
              (propertize " " 'display `(space :align-to (- right ,(1+ (string-width message)))))
              message))))

(defun pickerd--fit (name width)
  "NAME on one line in exactly WIDTH columns.
Control characters show as `?'; a name cut short ends in an ellipsis."
  (truncate-string-to-width (replace-regexp-in-string "[[:cntrl:]]" "?" name t t)
                            width nil ?\s "…"))

(defun pickerd--list-width (buffer)
  (let ((w (get-buffer-window buffer))) (if w (1- (window-body-width w)) 60)))

(defun pickerd--photo-row (picker photo width)
  "The photo list's line for PHOTO in WIDTH columns.
Current-photo marker, pick number, name (cut to fit), size."
  (let* ((state (pickerd-picker-state picker))
         (n (cl-position (alist-get 'path photo) (pickerd-picker-picks picker) :test #'equal))
         (dims (format "%dx%d" (alist-get 'width photo) (alist-get 'height photo))))
    (format "%s %-4s %s  %s"
            (if (equal (alist-get 'index photo) (alist-get 'photo_index state)) ">" " ")
            (if n (format "[%d]" (1+ n)) "[ ]")
            (pickerd--fit (alist-get 'name photo) (max 8 (- width 9 (string-width dims))))
            dims)))

(defun pickerd--picker-render (picker)
  (let* ((state (pickerd-picker-state picker))
         (albums-width (pickerd--list-width (pickerd-picker-albums-buffer picker)))
         (photos-width (pickerd--list-width (pickerd-picker-photos-buffer picker))))
    (pickerd--render-lines
     (pickerd-picker-albums-buffer picker)
     (mapcar (lambda (a)
               (let ((count (format " (%d)" (alist-get 'photo_count a))))
                 (cons (alist-get 'index a)
                       (concat (if (equal (alist-get 'index a) (alist-get 'album_index state)) "> " "  ")
                               (pickerd--fit (alist-get 'name a) (max 4 (- albums-width 2 (length count))))
                               count))))
             (pickerd-picker-albums picker))
     (alist-get 'album_index state))
    (pickerd--render-lines
     (pickerd-picker-photos-buffer picker)
     (mapcar (lambda (p) (cons (alist-get 'index p) (pickerd--photo-row picker p photos-width)))
             (pickerd-picker-photos picker))
     (alist-get 'photo_index state))
    (force-mode-line-update t)))

(defun pickerd--render-lines (buffer rows current)
  "Fill BUFFER with ROWS ((INDEX . TEXT) ...).
Point goes to the row whose index is CURRENT."
  (with-current-buffer buffer
    (let ((inhibit-read-only t) (keep (line-number-at-pos)) (target nil))
      (erase-buffer)
      (dolist (row rows)
        (when (equal (car row) current) (setq target (point)))
        (insert (propertize (cdr row) 'pickerd-index (car row)) "\n"))
      (goto-char (or target (point-min)))
      (unless target (forward-line (1- keep)))
      (let ((w (get-buffer-window buffer))) (when w (set-window-point w (point)))))))

(provide 'pickerd-pick-view)
;;; pickerd-pick-view.el ends here
