;;; pickerd-picker.el --- What the picker's files share  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el (loaded by pickerd-pick.el).  The picker's state, its
;; asynchronous requests and the helpers its commands share.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pickerd)

(cl-defstruct (pickerd-picker (:constructor pickerd--make-picker))
  conn session origin origin-marker windows frame albums photos state picks albums-buffer
  photos-buffer image-buffer refresh-timer resize-timer image-data image-format wanted-photo)

(defvar-local pickerd--picker nil "The picker this buffer belongs to.")

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

(defun pickerd--picker-live-p (picker)
  (and picker (buffer-live-p (pickerd-picker-albums-buffer picker))))

(defun pickerd--image-window (picker)
  (get-buffer-window (pickerd-picker-image-buffer picker) (pickerd-picker-frame picker)))

(defun pickerd--async (picker type fields callback &optional quiet)
  "Request TYPE on PICKER's session with FIELDS (an alist), asynchronously.
CALLBACK is called with (REPLY-FIELDS ERROR-DATA) while PICKER is open.
An error is also shown as a message unless its name is in QUIET (t: all)."
  (pickerd-request-async
   type (if (eq type 'albums) fields (cons (cons 'session (pickerd-picker-session picker)) fields))
   (lambda (reply err)
     (when (pickerd--picker-live-p picker)
       (when (and err (not (eq quiet t)) (not (memq (plist-get err :name) quiet)))
         (message "pickerd: %s" (pickerd-error-message (cons 'pickerd-error err))))
       (funcall callback reply err)))
   (pickerd-picker-conn picker)))

(defun pickerd--paths (selection key)
  "The KEY (`path' or `absolute_path') of each photo of SELECTION."
  (mapcar (lambda (p) (alist-get key p)) (alist-get 'photos selection)))

(provide 'pickerd-picker)
;;; pickerd-picker.el ends here
