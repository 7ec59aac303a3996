;;; pickerd-pick.el --- M-x pickerd-pick: album list | photo list | image  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el, which loads it; `(require 'pickerd)' gives `pickerd-pick'.
;; SPC picks, RET inserts the picks at point in the buffer you came from.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pickerd)

;;;; The picker: album list | photo list | image

(cl-defstruct (pickerd-picker (:constructor pickerd--make-picker))
  conn session origin origin-marker windows albums photos state picks albums-buffer
  photos-buffer image-buffer refresh-timer image-data)

(defvar-local pickerd--picker nil "The picker this buffer belongs to.")

(defvar pickerd-albums-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'pickerd-pick-select-album)
    (define-key map (kbd "n") #'next-line)
    (define-key map (kbd "p") #'previous-line)
    (define-key map (kbd "TAB") #'pickerd-pick-other-pane)
    (define-key map (kbd "g") #'pickerd-pick-refresh)
    (define-key map (kbd "q") #'pickerd-pick-quit)
    map))

(defvar pickerd-photos-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "SPC") #'pickerd-pick-toggle)
    (define-key map (kbd "RET") #'pickerd-pick-insert)
    (define-key map (kbd "n") #'pickerd-pick-next)
    (define-key map (kbd "p") #'pickerd-pick-previous)
    (define-key map (kbd "TAB") #'pickerd-pick-other-pane)
    (define-key map (kbd "g") #'pickerd-pick-refresh)
    (define-key map (kbd "q") #'pickerd-pick-quit)
    map))

(define-derived-mode pickerd-albums-mode special-mode "Albums"
  "The picker's album list.  RET selects an album.")

(define-derived-mode pickerd-photos-mode special-mode "Photos"
  "The picker's photo list.  SPC picks, RET inserts the picks, n/p move."
  (add-hook 'post-command-hook #'pickerd--photos-follow-point nil t))

(defun pickerd--photos-follow-point ()
  "The photo under point is the current one (seed 002): show it when point moved."
  (when-let ((picker pickerd--picker)
             (index (get-text-property (line-beginning-position) 'pickerd-index)))
    (unless (equal index (alist-get 'photo_index (pickerd-picker-state picker)))
      (pickerd-pick-show-photo))))

(define-derived-mode pickerd-image-mode special-mode "Photo"
  "The picker's current photo.")

(defun pickerd--pane-size (window)
  "WINDOW's body in pixels, within the protocol's 16...8192."
  (cons (max 16 (min 8192 (window-body-width window t)))
        (max 16 (min 8192 (window-body-height window t)))))

;;;###autoload
(defun pickerd-pick ()
  "Pick photos: album list | photo list | image.
SPC picks, RET inserts the picks at point."
  (interactive)
  (let* ((origin (current-buffer))
         (conn (pickerd-connect))
         (picker (pickerd--make-picker :conn conn :session pickerd-session :origin origin
                                       :origin-marker (copy-marker (point) t)
                                       :windows (current-window-configuration))))
    (condition-case err
        (progn
          (pickerd--picker-layout picker)
          (pickerd--picker-open-session picker)
          (pickerd-subscribe conn pickerd-session nil
                             (lambda (event) (pickerd--picker-event picker event)))
          (pickerd--picker-reload picker)
          (select-window (get-buffer-window (pickerd-picker-albums-buffer picker)))
          picker)
      (error (pickerd--picker-close picker)
             (signal (car err) (cdr err))))))

(defun pickerd--picker-buffer (picker name mode)
  (let ((buffer (get-buffer-create name)))
    (with-current-buffer buffer
      (funcall mode)
      (setq pickerd--picker picker)
      (setq header-line-format '(:eval (pickerd--header-line))))
    buffer))

(defun pickerd--picker-layout (picker)
  "Seed 002's three panes, side by side: albums | photos | image."
  (setf (pickerd-picker-albums-buffer picker)
        (pickerd--picker-buffer picker "*pickerd-albums*" #'pickerd-albums-mode)
        (pickerd-picker-photos-buffer picker)
        (pickerd--picker-buffer picker "*pickerd-photos*" #'pickerd-photos-mode)
        (pickerd-picker-image-buffer picker)
        (pickerd--picker-buffer picker "*pickerd-image*" #'pickerd-image-mode))
  (delete-other-windows)
  (let* ((albums (selected-window))
         (photos (ignore-errors (split-window albums (max 10 (/ (window-total-width albums) 4)) t)))
         (image (and photos (ignore-errors (split-window photos (max 10 (/ (window-total-width photos) 3)) t)))))
    (set-window-buffer albums (pickerd-picker-albums-buffer picker))
    (when photos (set-window-buffer photos (pickerd-picker-photos-buffer picker)))
    (when image (set-window-buffer image (pickerd-picker-image-buffer picker)))))

(defun pickerd--picker-open-session (picker)
  "Create the session at the image pane's size, or attach to it and resize it."
  (let* ((conn (pickerd-picker-conn picker))
         (window (get-buffer-window (pickerd-picker-image-buffer picker)))
         (size (if window (pickerd--pane-size window) '(640 . 480)))
         (name (pickerd-picker-session picker)))
    (condition-case err
        (pickerd-request 'sessionNew `((name . ,name) (width . ,(car size)) (height . ,(cdr size))
                                       (max_selection . ,pickerd-max-selection))
                         conn)
      (pickerd-error
       (if (eq (plist-get (cdr err) :name) 'session_exists)
           (pickerd-request 'sessionResize `((session . ,name) (width . ,(car size))
                                             (height . ,(cdr size)))
                            conn)
         (signal (car err) (cdr err)))))))

(defun pickerd--call (picker type &rest fields)
  "Request TYPE on PICKER's session with FIELDS (alternating keys and values)."
  (let ((alist `((session . ,(pickerd-picker-session picker)))))
    (while fields
      (push (cons (pop fields) (pop fields)) alist))
    (pickerd-request type alist (pickerd-picker-conn picker))))

(defun pickerd--picker-reload (picker)
  "Fetch albums, state, photos, picks and the image again, and redraw every pane."
  (let ((conn (pickerd-picker-conn picker)))
    (setf (pickerd-picker-albums picker) (alist-get 'albums (pickerd-request 'albums nil conn)))
    (setf (pickerd-picker-state picker) (pickerd--call picker 'status))
    (setf (pickerd-picker-photos picker)
          (if (equal (alist-get 'album (pickerd-picker-state picker)) "") nil
            (condition-case nil
                (alist-get 'photos (pickerd--call picker 'photosPage 'offset 0 'limit 10000))
              (pickerd-error nil))))
    (pickerd--picker-load-picks picker)
    (pickerd--picker-load-image picker)
    (pickerd--picker-render picker)))

(defun pickerd--picker-load-picks (picker)
  (setf (pickerd-picker-picks picker)
        (mapcar (lambda (p) (alist-get 'path p))
                (alist-get 'photos (pickerd--call picker 'selection)))))

(defun pickerd--picker-load-image (picker)
  "The current photo as PNG bytes, or nil when none is selected."
  (setf (pickerd-picker-image-data picker)
        (and (/= 0 (alist-get 'photo_index (pickerd-picker-state picker) 0))
             (condition-case nil
                 (alist-get 'data (pickerd--call picker 'getImage 'format 2 'quality 0 'flags 0))
               (pickerd-error nil)))))

(defun pickerd--header-line ()
  "Title left, message right (seed 002's labels)."
  (when pickerd--picker
    (let* ((state (pickerd-picker-state pickerd--picker))
           (title (alist-get 'title state ""))
           (message (alist-get 'message state "")))
      (concat " " title
              (propertize " " 'display `(space :align-to (- right ,(1+ (string-width message)))))
              message))))

(defun pickerd--picker-render (picker)
  (let ((state (pickerd-picker-state picker)))
    (pickerd--render-lines
     (pickerd-picker-albums-buffer picker)
     (mapcar (lambda (a)
               (cons (alist-get 'index a)
                     (format "%s %s (%d)"
                             (if (equal (alist-get 'index a) (alist-get 'album_index state)) ">" " ")
                             (alist-get 'name a) (alist-get 'photo_count a))))
             (pickerd-picker-albums picker))
     (alist-get 'album_index state))
    (pickerd--render-lines
     (pickerd-picker-photos-buffer picker)
     (mapcar (lambda (p)
               (cons (alist-get 'index p)
                     (format "%s %s %s  %dx%d"
                             (if (equal (alist-get 'index p) (alist-get 'photo_index state)) ">" " ")
                             (if (member (alist-get 'path p) (pickerd-picker-picks picker)) "[x]" "[ ]")
                             (alist-get 'name p) (alist-get 'width p) (alist-get 'height p))))
             (pickerd-picker-photos picker))
     (alist-get 'photo_index state))
    (pickerd--render-image picker)
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

(defun pickerd--render-image (picker)
  (let ((data (pickerd-picker-image-data picker)))
    (with-current-buffer (pickerd-picker-image-buffer picker)
      (let ((inhibit-read-only t))
        (erase-buffer)
        (cond ((null data) (insert "(no photo selected)"))
              ((and (display-images-p) (create-image data 'png t))
               (insert-image (create-image data 'png t)))
              (t (let ((size (pickerd-png-size data)))
                   (insert (format "[PNG %dx%d, %d bytes: this display shows no images]"
                                   (or (car size) 0) (or (cdr size) 0) (length data))))))))))

(defun pickerd--picker-event (picker event)
  "A session event: redraw soon (not inside the process filter)."
  (when (eq (alist-get 'kind event) 'sessionEvent)
    (if (eq (alist-get 'change event) 'closed)
        (run-at-time 0 nil #'pickerd--picker-close picker)
      (unless (pickerd-picker-refresh-timer picker)
        (setf (pickerd-picker-refresh-timer picker)
              (run-at-time 0.05 nil (lambda ()
                                      (setf (pickerd-picker-refresh-timer picker) nil)
                                      (when (buffer-live-p (pickerd-picker-photos-buffer picker))
                                        (with-demoted-errors "pickerd: %S"
                                          (pickerd--picker-reload picker))))))))))

(defun pickerd--picker-or-error ()
  (or pickerd--picker (user-error "Not in a pickerd picker buffer")))

(defun pickerd--index-at-point ()
  (or (get-text-property (line-beginning-position) 'pickerd-index)
      (user-error "No row here")))

(defmacro pickerd--reporting (&rest body)
  "Run BODY; show a `pickerd-error' as a message with its hint.
Nothing is signalled."
  `(condition-case err (progn ,@body)
     (pickerd-error (message "pickerd: %s" (pickerd-error-message err)) nil)))

(defun pickerd-pick-select-album ()
  "Select the album on this line; the photo list follows."
  (interactive)
  (let ((picker (pickerd--picker-or-error)))
    (pickerd--reporting
     (pickerd--call picker 'selectAlbum 'album (pickerd--index-at-point))
     (pickerd--picker-reload picker)
     (let ((w (get-buffer-window (pickerd-picker-photos-buffer picker))))
       (when w (select-window w))))))

(defun pickerd-pick-show-photo ()
  "Make the photo on this line current and show it."
  (interactive)
  (let ((picker (pickerd--picker-or-error)))
    ;; Both requests are pipelined and answered in the filter: moving through the list
    ;; never waits for an image.  An image superseded by a newer one answers `cancelled'.
    (pickerd--reporting
     (let ((conn (pickerd-picker-conn picker))
           (session `((session . ,(pickerd-picker-session picker)))))
       (pickerd-request-async
        'selectPhoto `((photo . ,(pickerd--index-at-point)) ,@session)
        (lambda (fields err)
          (if err
              (message "pickerd: %s" (pickerd-error-message (cons 'pickerd-error err)))
            (setf (pickerd-picker-state picker) fields)
            (pickerd--picker-render picker)))
        conn)
       (pickerd-request-async
        'getImage `((format . 2) ,@session)
        (lambda (fields err)
          (unless (eq (plist-get err :name) 'cancelled)
            (setf (pickerd-picker-image-data picker) (alist-get 'data fields))
            (when (buffer-live-p (pickerd-picker-image-buffer picker))
              (pickerd--render-image picker))))
        conn)))))

(defun pickerd-pick-next ()
  "Next photo."
  (interactive)
  (forward-line 1)
  (when (eobp) (forward-line -1))
  (pickerd-pick-show-photo))

(defun pickerd-pick-previous ()
  "Previous photo."
  (interactive)
  (forward-line -1)
  (pickerd-pick-show-photo))

(defun pickerd-pick-toggle ()
  "Pick the photo on this line, or unpick it; then move to the next line."
  (interactive)
  (let ((picker (pickerd--picker-or-error)))
    (pickerd--reporting
     (let ((reply (pickerd--call picker 'toggle 'photo (pickerd--index-at-point))))
       (setf (pickerd-picker-picks picker)
             (mapcar (lambda (p) (alist-get 'path p)) (alist-get 'photos reply)))
       (pickerd--picker-render picker)
       (forward-line 1)
       (when (eobp) (forward-line -1))))))

(defun pickerd-pick-insert ()
  "Insert the picks in the buffer `pickerd-pick' was called from.
They go at its point then; the picker closes."
  (interactive)
  (let* ((picker (pickerd--picker-or-error))
         (paths (pickerd-selection-of picker))
         (origin (pickerd-picker-origin picker)))
    (pickerd--picker-close picker)
    (when (and paths (buffer-live-p origin))
      (pickerd-insert-picks paths origin (marker-position (pickerd-picker-origin-marker picker))))
    (message "pickerd: inserted %d photo%s" (length paths) (if (= 1 (length paths)) "" "s"))
    paths))

(defun pickerd-selection-of (picker)
  "Absolute paths of PICKER's picks."
  (mapcar (lambda (p) (alist-get 'absolute_path p))
          (alist-get 'photos (pickerd--call picker 'selection))))

(defun pickerd-pick-other-pane ()
  "Move between the album and photo lists."
  (interactive)
  (let* ((picker (pickerd--picker-or-error))
         (target (if (eq (current-buffer) (pickerd-picker-albums-buffer picker))
                     (pickerd-picker-photos-buffer picker)
                   (pickerd-picker-albums-buffer picker)))
         (w (get-buffer-window target)))
    (when w (select-window w))))

(defun pickerd-pick-refresh ()
  "Fetch everything again."
  (interactive)
  (pickerd--reporting (pickerd--picker-reload (pickerd--picker-or-error))))

(defun pickerd-pick-quit ()
  "Close the picker without inserting (the picks stay in the session)."
  (interactive)
  (pickerd--picker-close (pickerd--picker-or-error)))

(defun pickerd--picker-close (picker)
  "Close PICKER's connection and buffers and restore the windows.
No image is left behind."
  (when (pickerd-picker-refresh-timer picker)
    (cancel-timer (pickerd-picker-refresh-timer picker)))
  (pickerd-close (pickerd-picker-conn picker))
  (dolist (b (list (pickerd-picker-albums-buffer picker) (pickerd-picker-photos-buffer picker)
                   (pickerd-picker-image-buffer picker)))
    (when (buffer-live-p b) (kill-buffer b)))
  (when (pickerd-picker-windows picker)
    (ignore-errors (set-window-configuration (pickerd-picker-windows picker)))
    (setf (pickerd-picker-windows picker) nil)))

(provide 'pickerd-pick)
;;; pickerd-pick.el ends here
