;;; pickerd-test-support.el --- What the ERT files of pickerd.el share  -*- lexical-binding: t; -*-

;;; Commentary:

;; Helpers of the test files (tests/*-test.el): unique names, the live daemon started by
;; run-tests.sh, PROTOCOL.md's vectors, waiting for output, pickerctl.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'pickerd)

(defvar pickerd-test-dir (file-name-directory (or load-file-name buffer-file-name)))
(defvar pickerd-test-protocol-md
  (expand-file-name "../../../docs/PROTOCOL.md" pickerd-test-dir))
(defvar pickerd-test-counter 0)

(defun pickerd-test-unique (prefix)
  (format "%s-%d-%d" prefix (emacs-pid) (cl-incf pickerd-test-counter)))

(defun pickerd-test-daemon-p ()
  (let ((s (getenv "PICKER_SOCKET"))) (and s (file-exists-p s))))

(defmacro pickerd-test-with-daemon (&rest body)
  "Skip unless run-tests.sh started a daemon; then run BODY."
  `(progn
     (skip-unless (pickerd-test-daemon-p))
     ,@body))

(defun pickerd-test-vectors ()
  "Every hex block of PROTOCOL.md: (KIND TITLE BYTES), KIND `vector', `refused' or `extended'."
  (with-temp-buffer
    (insert-file-contents pickerd-test-protocol-md)
    (goto-char (point-min))
    (let (out)
      (while (re-search-forward "<!-- \\(vector\\|refused\\|extended\\): \\(.*?\\) -->[ \t\n]*```hex\n" nil t)
        (let ((kind (intern (match-string 1))) (title (match-string 2)) (start (point)))
          (re-search-forward "^```")
          (let ((bytes nil))
            (dolist (line (split-string (buffer-substring start (match-beginning 0)) "\n"))
              (dolist (hex (split-string (car (split-string line "#")) "[ \t]+" t))
                (push (string-to-number hex 16) bytes)))
            (push (list kind title (apply #'unibyte-string (nreverse bytes))) out))))
      (nreverse out))))

(defun pickerd-test-wait-for (predicate)
  "Read the daemon's output until PREDICATE holds (at most `pickerd-timeout' seconds)."
  (let ((deadline (+ (float-time) pickerd-timeout)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))

(defun pickerd-test-pickerctl (&rest args)
  "Run pickerctl ARGS on the test daemon; its exit code."
  (apply #'call-process (expand-file-name "pickerctl" (getenv "PICKER_BIN_DIR")) nil nil nil
         "--socket" (getenv "PICKER_SOCKET") args))

(defun pickerd-test-folder-album (conn min-photos)
  "A folder album (not All Photos) with at least MIN-PHOTOS photos."
  (or (cl-find-if (lambda (a) (and (/= (alist-get 'index a) 1)
                                   (>= (alist-get 'photo_count a) min-photos)))
                  (alist-get 'albums (pickerd-request 'albums nil conn)))
      (ert-skip (format "no album with %d photos" min-photos))))

(provide 'pickerd-test-support)
;;; pickerd-test-support.el ends here
