;;; pickerd-pick-test.el --- ERT tests of M-x pickerd-pick against a live daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by clients/emacs/run-tests.sh (every tests/*-test.el), which starts pickerd on a
;; temporary socket and library and sets PICKER_SOCKET and PICKER_BIN_DIR (pickerctl).

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'org)
(require 'pickerd-test-support)

;;;; The picker

(ert-deftest pickerd-pick-toggles-with-spc-and-inserts-with-ret-into-the-org-buffer ()
  (pickerd-test-with-daemon
   (let ((pickerd-session (pickerd-test-unique "pick"))
         (origin (generate-new-buffer "notes.org")))
     (unwind-protect
         (progn
           (switch-to-buffer origin)
           (org-mode)
           (insert "Photos: ")
           (let* ((picker (pickerd-pick))
                  (albums (pickerd-picker-albums-buffer picker))
                  (photos (pickerd-picker-photos-buffer picker)))
             (should (equal (mapcar #'buffer-name (list albums photos (pickerd-picker-image-buffer picker)))
                            '("*pickerd-albums*" "*pickerd-photos*" "*pickerd-image*")))
             ;; Album list: go to a folder album, RET.
             (with-current-buffer albums
               (goto-char (point-min))
               (forward-line 1)
               (pickerd-pick-select-album))
             (with-current-buffer photos
               (should (> (count-lines (point-min) (point-max)) 0))
               (goto-char (point-min))
               (pickerd-pick-show-photo)       ; asynchronous: the answers arrive in the filter
               (should (pickerd-test-wait-for
                        (lambda () (pickerd-png-size (pickerd-picker-image-data picker)))))
               (should (string-match-p " px, " (alist-get 'message (pickerd-picker-state picker))))
               (with-current-buffer (pickerd-picker-image-buffer picker)
                 (should (string-match-p "PNG [0-9]+x[0-9]+" (buffer-string))))
               (goto-char (point-min))
               (pickerd-pick-toggle)          ; picks line 1, moves to line 2
               (should (string-match-p "\\[x\\]" (buffer-string)))
               ;; A pick made elsewhere arrives as an event and is drawn.
               (should (= 0 (pickerd-test-pickerctl "--session" pickerd-session "toggle" "--index" "2")))
               (should (pickerd-test-wait-for
                        (lambda () (= 2 (length (pickerd-picker-picks picker))))))
               (should (pickerd-test-wait-for
                        (lambda () (= 2 (how-many "\\[x\\]" (point-min) (point-max))))))
               (let ((inserted (pickerd-pick-insert)))
                 (should (= (length inserted) 2))
                 (with-current-buffer origin
                   (should (equal (buffer-string)
                                  (concat "Photos: " (mapconcat (lambda (p) (format "[[file:%s]]" p))
                                                                inserted "\n"))))))))
           ;; The picker left nothing behind.
           (should-not (get-buffer "*pickerd-photos*"))
           (should-not (get-buffer "*pickerd-image*")))
       (kill-buffer origin)
       (ignore-errors (pickerd-request 'sessionClose `((session . ,pickerd-session))))))))

(provide 'pickerd-pick-test)
;;; pickerd-pick-test.el ends here
