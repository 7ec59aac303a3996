;;; pickerd-pick-test.el --- ERT tests of M-x pickerd-pick against a live daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; M-x pickerd-pick in this batch Emacs (a terminal frame, so the photo comes as symbols)
;; against the daemon run-tests.sh starts: panes, picks, refocusing, insertion, faces.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'org)
(require 'pickerd-test-support)

;;;; The picker

(defun pickerd-test-picker-ready (picker)
  "Wait until PICKER's album list is drawn (its requests are asynchronous)."
  (should (pickerd-test-wait-for
           (lambda () (with-current-buffer (pickerd-picker-albums-buffer picker)
                        (> (buffer-size) 0))))))

(defun pickerd-test-open-folder-album (picker)
  "RET on the second album line; wait for its photos."
  (with-current-buffer (pickerd-picker-albums-buffer picker)
    (goto-char (point-min))
    (forward-line 1)
    (pickerd-pick-select-album))
  (should (pickerd-test-wait-for
           (lambda () (with-current-buffer (pickerd-picker-photos-buffer picker)
                        (> (count-lines (point-min) (point-max)) 1))))))

(defun pickerd-test-coloured-cells (buffer)
  "The characters of BUFFER drawn with a 24-bit background face."
  (with-current-buffer buffer
    (let ((n 0))
      (save-excursion
        (goto-char (point-min))
        (while (not (eobp))
          (let ((face (get-text-property (point) 'face)))
            (when (and (consp face) (string-match-p "\\`#[0-9a-f]\\{6\\}\\'" (or (plist-get face :background) "")))
              (cl-incf n)))
          (forward-char 1)))
      n)))

(defmacro pickerd-test-from-org-buffer (prefix &rest body)
  "Run BODY in a fresh org buffer `origin' alone in the frame, on a new session.
`pickerd-session' is a unique name made from PREFIX; the buffer and the session
are removed afterwards."
  (declare (indent 1))
  `(pickerd-test-with-daemon
    (let ((pickerd-session (pickerd-test-unique ,prefix))
          (origin (generate-new-buffer "notes.org")))
      (unwind-protect
          (progn
            (switch-to-buffer origin)
            (delete-other-windows)
            (org-mode)
            ,@body)
        (when (buffer-live-p origin) (kill-buffer origin))
        (ignore-errors (pickerd-request 'sessionClose `((session . ,pickerd-session))))))))

(ert-deftest pickerd-symbols-escapes-become-24-bit-faces ()
  (let ((s (pickerd-symbols-string
            (encode-coding-string
             "\e[0m\e[38;2;255;0;16;48;2;1;2;3m\u2580\e[38;2;0;0;0;48;2;255;255;255m \e[0m\n\e[48;2;9;9;9mx\e[0m" 'utf-8))))
    (should (equal (substring-no-properties s) "\u2580 \nx"))
    (should (equal (get-text-property 0 'face s) '(:foreground "#ff0010" :background "#010203")))
    (should (equal (get-text-property 1 'face s) '(:foreground "#000000" :background "#ffffff")))
    (should (null (get-text-property 2 'face s)))      ; the reset before the newline
    (should (equal (get-text-property 3 'face s) '(:background "#090909")))))

(ert-deftest pickerd-pick-toggles-with-spc-and-inserts-with-ret-into-the-org-buffer ()
  (pickerd-test-from-org-buffer "pick"
				(insert "Photos: ")
				(let* ((picker (pickerd-pick))
				       (albums (pickerd-picker-albums-buffer picker))
				       (photos (pickerd-picker-photos-buffer picker))
				       (image (pickerd-picker-image-buffer picker)))
				  (should (equal (mapcar #'buffer-name (list albums photos image))
						 '("*pickerd-albums*" "*pickerd-photos*" "*pickerd-image*")))
				  (pickerd-test-picker-ready picker)
				  (with-current-buffer albums
				    (should (string-match-p "RET open" (pickerd--header-line))))
				  (pickerd-test-open-folder-album picker)
				  (with-current-buffer photos
				    (should (string-match-p "SPC pick  RET insert" (pickerd--header-line)))
				    (goto-char (point-min))
				    (pickerd-pick-show-photo)       ; asynchronous: the answers arrive in the filter
				    ;; A terminal frame (batch is one): the daemon's symbols, fitted to the pane's cells.
				    (should (pickerd-test-wait-for (lambda () (pickerd-picker-image-data picker))))
				    (should (eq (pickerd-picker-image-format picker) 'symbols))
				    (should (string-match-p " px, " (alist-get 'message (pickerd-picker-state picker))))
				    (let ((cells (pickerd-image-cells (get-buffer-window image))))
				      (with-current-buffer image
					(should (<= (count-lines (point-min) (point-max)) (cdr cells)))
					(should (<= (apply #'max (mapcar #'string-width (split-string (buffer-string) "\n")))
						    (car cells))))
				      (should (> (pickerd-test-coloured-cells image) (car cells))))
				    ;; The session's pane is those cells at the daemon's 8x16 px cell, not cells as pixels.
				    (let ((state (pickerd-request 'status `((session . ,pickerd-session)))))
				      (should (= (alist-get 'width state)
						 (* 8 (car (pickerd-image-cells (get-buffer-window image)))))))
				    (goto-char (point-min))
				    (pickerd-pick-toggle)          ; picks line 1, moves to line 2
				    (should (pickerd-test-wait-for (lambda () (string-match-p "\\[1\\]" (buffer-string)))))
				    ;; A pick made elsewhere arrives as an event and is drawn with its number.
				    (should (= 0 (pickerd-test-pickerctl "--session" pickerd-session "toggle" "--index" "2")))
				    (should (pickerd-test-wait-for
					     (lambda () (= 2 (length (pickerd-picker-picks picker))))))
				    (should (pickerd-test-wait-for
					     (lambda () (string-match-p "\\[2\\]" (buffer-string)))))
				    (let ((paths (pickerd-selection pickerd-session)))
				      (pickerd-pick-insert)
				      (should (pickerd-test-wait-for (lambda () (not (buffer-live-p photos)))))
				      (with-current-buffer origin
					(should (equal (buffer-string)
						       (concat "Photos: " (mapconcat (lambda (p) (format "[[file:%s]]" p))
										     paths "\n"))))))))
				;; The picker left nothing behind, and the windows are as they were.
				(should-not (get-buffer "*pickerd-photos*"))
				(should-not (get-buffer "*pickerd-image*"))
				(should (equal (mapcar #'window-buffer (window-list)) (list origin)))))

;; Issue 25 #3: no request of the picker waits for its reply (`pickerd-wait' is the only loop
;; that does); the handshake, session, lists, picture, picks and insertion all answer in the filter.
(ert-deftest pickerd-pick-never-waits-for-the-daemon ()
  (let ((waits 0))
    (cl-flet ((count (&rest _) (cl-incf waits)))
      (advice-add 'pickerd-wait :before #'count)
      (unwind-protect
          (pickerd-test-from-org-buffer "async"
            (let ((picker (pickerd-pick)))
              (pickerd-test-picker-ready picker)
              (pickerd-test-open-folder-album picker)
              (with-current-buffer (pickerd-picker-photos-buffer picker)
                (goto-char (point-min))
                (pickerd-pick-show-photo)
                (pickerd-pick-toggle)
                (should (pickerd-test-wait-for (lambda () (pickerd-picker-picks picker))))
                (should (= 0 waits))
                (pickerd-pick-insert))
              (should (pickerd-test-wait-for (lambda () (> (buffer-size origin) 0))))
              (should (= 0 waits))))
        (advice-remove 'pickerd-wait #'count)))))

;; Issue 25 #2: M-x pickerd-pick again from the open picker's album list, then RET: the picks
;; were "inserted" nowhere and the windows were left as notes.org | *scratch* | *scratch*.
(ert-deftest pickerd-pick-again-while-open-focuses-it-and-insert-reaches-the-origin ()
  (pickerd-test-from-org-buffer "again"
				(let ((picker (pickerd-pick)))
				  (pickerd-test-picker-ready picker)
				  (select-window (get-buffer-window (pickerd-picker-albums-buffer picker)))
				  (should (eq (pickerd-pick) picker))       ; from the album list: the same picker
				  (should (eq (window-buffer) (pickerd-picker-albums-buffer picker)))
				  (should (= 3 (length (window-list))))
				  (pickerd-test-open-folder-album picker)
				  (with-current-buffer (pickerd-picker-photos-buffer picker)
				    (goto-char (point-min))
				    (pickerd-pick-toggle)
				    (should (pickerd-test-wait-for (lambda () (pickerd-picker-picks picker))))
				    (pickerd-pick-insert))
				  (should (pickerd-test-wait-for (lambda () (> (buffer-size origin) 0))))
				  (with-current-buffer origin
				    (should (string-match-p "\\`\\[\\[file:/.*\\]\\]\\'" (buffer-string)))))
				(should (equal (mapcar #'window-buffer (window-list)) (list origin)))
				(should-not (frame-parameter nil 'pickerd-picker))))

(ert-deftest pickerd-pick-from-emacsclient-inserts-into-the-buffer-on-screen ()
  ;; `emacsclient --eval "(pickerd-pick)"' runs in the internal " *server*" buffer.
  (pickerd-test-from-org-buffer "client"
    (insert "before ")
    (let ((picker (with-current-buffer (get-buffer-create " *server*") (pickerd-pick))))
      (pickerd-test-picker-ready picker)
      (should (eq (pickerd-picker-origin picker) origin))
      (should (= (marker-position (pickerd-picker-origin-marker picker)) (with-current-buffer origin (point))))
      (pickerd--picker-close picker))))

(ert-deftest pickerd-pick-quit-restores-the-windows-exactly ()
  (pickerd-test-from-org-buffer "quit"
    (let* ((other (split-window-right))
           (before (current-window-configuration))
           (picker (pickerd-pick)))
      (pickerd-test-picker-ready picker)
      (with-current-buffer (pickerd-picker-photos-buffer picker) (pickerd-pick-quit))
      (should (compare-window-configurations before (current-window-configuration)))
      (should (window-live-p other))
      (should-not (frame-parameter nil 'pickerd-picker)))))

(ert-deftest pickerd-insert-into-a-killed-origin-says-why-and-keeps-the-picker ()
  (pickerd-test-with-daemon
   (let ((pickerd-session (pickerd-test-unique "gone"))
         (origin (generate-new-buffer "gone.org")))
     (switch-to-buffer origin)
     (let ((picker (pickerd-pick)))
       (unwind-protect
           (progn
             (pickerd-test-picker-ready picker)
             (kill-buffer origin)
             (with-current-buffer (pickerd-picker-photos-buffer picker)
               (should (string-match-p "was killed; the picks stay in session"
                                       (cadr (should-error (pickerd-pick-insert) :type 'user-error)))))
             (should (pickerd--picker-live-p picker)))
         (pickerd--picker-close picker)
         (ignore-errors (pickerd-request 'sessionClose `((session . ,pickerd-session)))))))))

(ert-deftest pickerd-long-names-are-cut-with-an-ellipsis ()
  (should (equal (pickerd--fit "a-very-long-photo-name.jpg" 10) "a-very-lo…"))
  (should (equal (pickerd--fit "new\nline.jpg" 12) "new?line.jpg"))
  (should (equal (pickerd--fit "short" 7) "short  ")))

(ert-deftest pickerd-session-is-the-option-else-picker-session-else-emacs ()
  (let ((process-environment (copy-sequence process-environment)))
    (let ((pickerd-session nil))
      (setenv "PICKER_SESSION" nil)
      (should (equal (pickerd-session-name) "emacs"))
      (setenv "PICKER_SESSION" "")
      (should (equal (pickerd-session-name) "emacs"))
      (setenv "PICKER_SESSION" "notes")
      (should (equal (pickerd-session-name) "notes")))
    (let ((pickerd-session "mine"))
      (should (equal (pickerd-session-name) "mine")))))

(provide 'pickerd-pick-test)
;;; pickerd-pick-test.el ends here
