;;; pickerd-pick.el --- M-x pickerd-pick: album list | photo list | image  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el, which loads it; `(require 'pickerd)' gives `pickerd-pick'.
;; SPC picks, RET inserts the picks at point in the buffer you came from.
;;
;; One picker per frame: `pickerd-pick' again while one is open focuses it.  Every request,
;; the handshake included, is asynchronous: replies are handled in the process filter,
;; Emacs never waits for the daemon while you type.  The image pane is
;; pickerd-image.el's (a PNG on a graphic frame, coloured symbols on a terminal).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pickerd)
(require 'pickerd-image)
(require 'pickerd-picker)
(require 'pickerd-pick-view)

;;;; The picker: album list | photo list | image

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
  "The picker's album list.  RET selects an album."
  (setq truncate-lines t))

(define-derived-mode pickerd-photos-mode special-mode "Photos"
  "The picker's photo list.  SPC picks, RET inserts the picks, n/p move."
  (setq truncate-lines t)
  (add-hook 'post-command-hook #'pickerd--photos-follow-point nil t))

(define-derived-mode pickerd-image-mode special-mode "Photo"
  "The picker's current photo."
  (setq truncate-lines t)
  (pickerd-image-use-narrow-symbols)
  (add-hook 'window-size-change-functions #'pickerd--image-window-resized nil t))

(defun pickerd--photos-follow-point ()
  "The photo under point is the current one (seed 002).
Show it when point moved."
  (when-let ((picker pickerd--picker)
             (index (get-text-property (line-beginning-position) 'pickerd-index)))
    (unless (equal index (or (pickerd-picker-wanted-photo picker)
                             (alist-get 'photo_index (pickerd-picker-state picker))))
      (pickerd-pick-show-photo))))

;;;###autoload
(defun pickerd-pick ()
  "Pick photos: album list | photo list | image.
SPC picks, RET inserts the picks at point.  One picker per frame:
called again while it is open, this focuses it."
  (interactive)
  (let ((open (frame-parameter nil 'pickerd-picker)))
    (cond
     ((pickerd--picker-live-p open)
      (pickerd--picker-focus open)
      (message "pickerd: the picker is open (RET inserts into %s, q quits)"
               (buffer-name (pickerd-picker-origin open)))
      open)
     (pickerd--picker (user-error "pickerd: this buffer belongs to a picker of another frame"))
     (t (pickerd--picker-start)))))

(defun pickerd--picker-origin ()
  "The buffer the picks go to, and where: the current buffer at point.
An internal buffer (its name starts with a space: `emacsclient --eval' runs
in \" *server*\") stands for the selected window's buffer at its point."
  (if (string-prefix-p " " (buffer-name))
      (let ((window (selected-window)))
        (cons (window-buffer window)
              (with-current-buffer (window-buffer window) (copy-marker (window-point window) t))))
    (cons (current-buffer) (copy-marker (point) t))))

(defun pickerd--picker-start ()
  (let* ((picker nil)
         (origin (pickerd--picker-origin))
         ;; The handshake too is answered in the filter: the requests below queue behind it.
         (conn (pickerd-connect nil (lambda (_ err) (when err (pickerd--picker-fail picker err))))))
    (setq picker (pickerd--make-picker :conn conn :session (pickerd-session-name)
                                       :origin (car origin) :frame (selected-frame)
                                       :origin-marker (cdr origin)
                                       :windows (current-window-configuration)))
    (condition-case err
        (progn
          (pickerd--picker-layout picker)
          (set-frame-parameter nil 'pickerd-picker picker)
          (pickerd--picker-render picker)
          (pickerd--picker-open-session
           picker (lambda ()
                    (pickerd-subscribe-async conn (pickerd-picker-session picker) nil
                                             (lambda (event) (pickerd--picker-event picker event))
                                             (lambda (_ err) (if err (pickerd--picker-fail picker err)
                                                               (pickerd--picker-reload picker))))))
          (select-window (get-buffer-window (pickerd-picker-albums-buffer picker)))
          picker)
      (error (pickerd--picker-close picker)
             (signal (car err) (cdr err))))))

(defun pickerd--picker-buffer (picker name mode)
  (let ((buffer (generate-new-buffer name)))
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
  (pickerd--picker-show-panes picker))

(defun pickerd--picker-show-panes (picker)
  (delete-other-windows)
  (let* ((albums (selected-window))
         (photos (ignore-errors (split-window albums (max 10 (/ (window-total-width albums) 4)) t)))
         (image (and photos (ignore-errors (split-window photos (max 10 (/ (window-total-width photos) 3)) t)))))
    (set-window-buffer albums (pickerd-picker-albums-buffer picker))
    (when photos (set-window-buffer photos (pickerd-picker-photos-buffer picker)))
    (when image (set-window-buffer image (pickerd-picker-image-buffer picker)))))

(defun pickerd--picker-focus (picker)
  "Select PICKER's frame and album list.
Its panes are shown again when other buffers replaced them."
  (select-frame-set-input-focus (pickerd-picker-frame picker))
  (unless (get-buffer-window (pickerd-picker-albums-buffer picker))
    (pickerd--picker-show-panes picker))
  (select-window (get-buffer-window (pickerd-picker-albums-buffer picker))))

(defun pickerd--picker-fail (picker err)
  (message "pickerd: %s" (pickerd-error-message (cons 'pickerd-error err)))
  (pickerd--picker-close picker))

(defun pickerd--picker-open-session (picker then)
  "Create the session at the image pane's size, then call THEN.
An existing session of that name is attached to and resized."
  (let* ((window (pickerd--image-window picker))
         (size (if window (pickerd-image-pane-size window) '(640 . 480)))
         (pane `((width . ,(car size)) (height . ,(cdr size)))))
    (pickerd-request-async
     'sessionNew `((name . ,(pickerd-picker-session picker)) ,@pane
                   (max_selection . ,pickerd-max-selection))
     (lambda (_ err)
       (cond ((null err) (funcall then))
             ((eq (plist-get err :name) 'session_exists)
              (pickerd--async picker 'sessionResize pane
                              (lambda (_ err) (if err (pickerd--picker-close picker) (funcall then)))))
             (t (pickerd--picker-fail picker err))))
     (pickerd-picker-conn picker))))

(defun pickerd--picker-reload (picker)
  "Fetch albums, state, photos and picks (pipelined), then redraw.
The image is fetched too."
  (let ((left 4) (got nil))
    (pcase-dolist (`(,key ,type ,fields ,quiet)
                   '((albums albums nil nil) (state status nil nil)
                     (photos photosPage ((offset . 0) (limit . 10000)) t) (picks selection nil nil)))
      (pickerd--async picker type fields
                      (lambda (reply _err)
                        (push (cons key reply) got)
                        (when (= 0 (cl-decf left)) (pickerd--picker-apply picker got)))
                      quiet))
    (pickerd--picker-fetch-image picker)))

(defun pickerd--picker-apply (picker got)
  "Keep the replies GOT ((KEY . FIELDS) ...) of a reload and redraw."
  (let ((state (or (alist-get 'state got) (pickerd-picker-state picker))))
    (setf (pickerd-picker-albums picker) (alist-get 'albums (alist-get 'albums got))
          (pickerd-picker-state picker) state
          (pickerd-picker-photos picker) (and (not (equal (alist-get 'album state) ""))
                                              (alist-get 'photos (alist-get 'photos got)))
          (pickerd-picker-picks picker) (pickerd--paths (alist-get 'picks got) 'path))
    (pickerd--picker-render picker)))

(defun pickerd--picker-fetch-image (picker)
  "Ask for the current photo as the image pane can show it; it is drawn on arrival.
A request superseded by a newer one is answered `cancelled' and dropped."
  (when-let ((window (pickerd--image-window picker)))
    (pcase-let ((`(,fields . ,format) (pickerd-image-request window)))
      (pickerd--async picker 'getImage fields
                      (lambda (reply err)
                        (unless (eq (plist-get err :name) 'cancelled)
                          (setf (pickerd-picker-image-data picker) (alist-get 'data reply)
                                (pickerd-picker-image-format picker) format)
                          (pickerd-image-draw (pickerd-picker-image-buffer picker) format
                                              (alist-get 'data reply)
                                              (and err (not (eq (plist-get err :name) 'nothing_selected))
                                                   (plist-get err :message)))))
                      '(cancelled nothing_selected)))))

(defun pickerd--image-window-resized (window)
  "WINDOW (the image pane) changed size.
The session is resized and the picture fetched again."
  (when-let ((picker (buffer-local-value 'pickerd--picker (window-buffer window))))
    (when (pickerd-picker-resize-timer picker) (cancel-timer (pickerd-picker-resize-timer picker)))
    (setf (pickerd-picker-resize-timer picker)
          (run-at-time 0.1 nil #'pickerd--picker-resize picker))))

(defun pickerd--picker-resize (picker)
  (setf (pickerd-picker-resize-timer picker) nil)
  (let ((window (pickerd--image-window picker)))
    (when (and window (pickerd--picker-live-p picker) (pickerd-picker-state picker))
      (let ((size (pickerd-image-pane-size window)))
        (pickerd--async picker 'sessionResize `((width . ,(car size)) (height . ,(cdr size)))
                        (lambda (reply _) (when reply (setf (pickerd-picker-state picker) reply)))))
      (pickerd--picker-fetch-image picker))))

(defun pickerd--picker-event (picker event)
  "A session event: redraw soon (not inside the process filter)."
  (when (eq (alist-get 'kind event) 'sessionEvent)
    (if (eq (alist-get 'change event) 'closed)
        (run-at-time 0 nil #'pickerd--picker-close picker)
      (unless (pickerd-picker-refresh-timer picker)
        (setf (pickerd-picker-refresh-timer picker)
              (run-at-time 0.05 nil (lambda ()
                                      (setf (pickerd-picker-refresh-timer picker) nil)
                                      (when (pickerd--picker-live-p picker)
                                        (pickerd--reporting (pickerd--picker-reload picker))))))))))


;;;; Commands

(defun pickerd-pick-select-album ()
  "Select the album on this line; the photo list follows."
  (interactive)
  (let ((picker (pickerd--picker-or-error)))
    (pickerd--reporting
     (pickerd--async picker 'selectAlbum `((album . ,(pickerd--index-at-point)))
                     (lambda (reply _)
                       (when reply
                         (setf (pickerd-picker-state picker) reply)
                         (pickerd--picker-reload picker)
                         (let ((w (get-buffer-window (pickerd-picker-photos-buffer picker))))
                           (when w (select-window w)))))))))

(defun pickerd-pick-show-photo ()
  "Make the photo on this line current and show it."
  (interactive)
  (let ((picker (pickerd--picker-or-error))
        (index (pickerd--index-at-point)))
    ;; Both requests are pipelined and answered in the filter: moving through the list
    ;; never waits for an image.  An image superseded by a newer one answers `cancelled'.
    (setf (pickerd-picker-wanted-photo picker) index)
    (pickerd--reporting
     (pickerd--async picker 'selectPhoto `((photo . ,index))
                     (lambda (reply _)
                       (when (equal index (pickerd-picker-wanted-photo picker))
                         (setf (pickerd-picker-wanted-photo picker) nil))
                       (when reply
                         (setf (pickerd-picker-state picker) reply)
                         (pickerd--picker-render picker))))
     (pickerd--picker-fetch-image picker))))

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
     (pickerd--async picker 'toggle `((photo . ,(pickerd--index-at-point)))
                     (lambda (reply _)
                       (when reply
                         (setf (pickerd-picker-picks picker) (pickerd--paths reply 'path))
                         (pickerd--picker-render picker))))
     (forward-line 1)
     (when (eobp) (forward-line -1)))))

(defun pickerd-pick-insert ()
  "Insert the picks in the buffer `pickerd-pick' was called from.
They go at its point then; the picker closes and the windows are as
they were.  When that buffer is gone or read-only, the picker stays
open and says so."
  (interactive)
  (let* ((picker (pickerd--picker-or-error))
         (origin (pickerd-picker-origin picker)))
    (cond ((not (buffer-live-p origin))
           (user-error "pickerd: the buffer the picker was opened from was killed; \
the picks stay in session %s (q quits)" (pickerd-picker-session picker)))
          ((buffer-local-value 'buffer-read-only origin)
           (user-error "pickerd: %s is read-only; nothing inserted (q quits)" (buffer-name origin))))
    (pickerd--reporting
     (pickerd--async picker 'selection nil
                     (lambda (reply _)
                       (when reply (pickerd--picker-insert-and-close picker (pickerd--paths reply 'absolute_path))))))))

(defun pickerd--picker-insert-and-close (picker paths)
  (let ((origin (pickerd-picker-origin picker)))
    (pickerd--picker-close picker)
    (when paths
      (pickerd-insert-picks paths origin (marker-position (pickerd-picker-origin-marker picker))))
    (message "pickerd: inserted %d photo%s into %s" (length paths) (if (= 1 (length paths)) "" "s")
             (buffer-name origin))))

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
  (dolist (timer (list (pickerd-picker-refresh-timer picker) (pickerd-picker-resize-timer picker)))
    (when timer (cancel-timer timer)))
  (pickerd-close (pickerd-picker-conn picker))
  (let ((frame (pickerd-picker-frame picker)))
    (when (and (frame-live-p frame) (eq (frame-parameter frame 'pickerd-picker) picker))
      (set-frame-parameter frame 'pickerd-picker nil)))
  (dolist (b (list (pickerd-picker-albums-buffer picker) (pickerd-picker-photos-buffer picker)
                   (pickerd-picker-image-buffer picker)))
    (when (buffer-live-p b) (kill-buffer b)))
  (when (pickerd-picker-windows picker)
    (ignore-errors (set-window-configuration (pickerd-picker-windows picker)))
    (setf (pickerd-picker-windows picker) nil)))

(provide 'pickerd-pick)
;;; pickerd-pick.el ends here
