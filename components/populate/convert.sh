# convert RAW OUT: the raw ILSVRC2012 tars in RAW converted to TFRecords in OUT/train and
# OUT/validation by the steps of tensorflow/models
# research/inception/inception/data/download_and_preprocess_imagenet.sh (at 48251730,
# after its download step): untar as its download step does, the validation images
# sorted into synset directories (preprocess_imagenet_validation_data.py), the bounding
# boxes into one CSV (process_bounding_boxes.py), then build_imagenet_data.py with
# --train_shards, --validation_shards and --num_threads (flags of build_imagenet_data.py
# at c76c54bd; it asserts each shard count is a multiple of the thread count). The
# converter is cloned at the pinned commit; everything but OUT is left in the work
# directory, removed after a passing verify.
convert() {
  raw="$data/$1"
  out="$data/$2"
  scratch="$work/convert"
  current="${TRAINSTACK_CONVERT_REPOSITORY:?}@${TRAINSTACK_CONVERT_COMMIT:?}"
  for tarball in ILSVRC2012_img_train.tar ILSVRC2012_img_val.tar ILSVRC2012_bbox_train_v2.tar.gz; do
    [ -s "$raw/$tarball" ] || fail "$raw/$tarball" "missing or empty (the source must fetch it)"
  done
  for tool in git python tar; do
    command -v "$tool" >/dev/null 2>&1 || fail "$current" "$tool is not in the image"
  done
  rm -rf "$scratch"
  mkdir -p "$scratch/train" "$scratch/validation" "$scratch/bounding_boxes" "$scratch/out"
  git init -q "$scratch/converter" || fail "$current" "git init failed"
  git -C "$scratch/converter" fetch -q --depth 1 -- "$TRAINSTACK_CONVERT_REPOSITORY" \
    "$TRAINSTACK_CONVERT_COMMIT" || fail "$current" "cannot fetch the converter's commit"
  git -C "$scratch/converter" checkout -q --detach FETCH_HEAD || fail "$current" "checkout failed"
  code="$scratch/converter/${TRAINSTACK_CONVERT_DIRECTORY:?}"
  current="$raw/ILSVRC2012_bbox_train_v2.tar.gz"
  tar xzf "$raw/ILSVRC2012_bbox_train_v2.tar.gz" -C "$scratch/bounding_boxes" \
    || fail "$current" "cannot extract it"
  current="$raw/ILSVRC2012_img_val.tar"
  tar xf "$raw/ILSVRC2012_img_val.tar" -C "$scratch/validation" || fail "$current" "cannot extract it"
  current="$raw/ILSVRC2012_img_train.tar"
  while IFS= read -r synset || [ -n "$synset" ]; do
    case "$synset" in n[0-9]*) ;; *) continue ;; esac
    mkdir -p "$scratch/train/$synset"
    tar xf "$raw/ILSVRC2012_img_train.tar" -O "$synset.tar" | tar xf - -C "$scratch/train/$synset" \
      || fail "$current" "cannot extract $synset.tar from it"
  done <"$code/imagenet_lsvrc_2015_synsets.txt"
  current="$code/preprocess_imagenet_validation_data.py"
  python "$code/preprocess_imagenet_validation_data.py" "$scratch/validation/" \
    "$code/imagenet_2012_validation_synset_labels.txt" || fail "$current" "failed"
  current="$code/process_bounding_boxes.py"
  python "$code/process_bounding_boxes.py" "$scratch/bounding_boxes/" \
    "$code/imagenet_lsvrc_2015_synsets.txt" >"$scratch/boxes.unsorted" || fail "$current" "failed"
  LC_ALL=C sort "$scratch/boxes.unsorted" >"$scratch/boxes.csv"
  current="$code/build_imagenet_data.py"
  python "$code/build_imagenet_data.py" --train_directory="$scratch/train/" \
    --validation_directory="$scratch/validation/" --output_directory="$scratch/out" \
    --imagenet_metadata_file="$code/imagenet_metadata.txt" \
    --labels_file="$code/imagenet_lsvrc_2015_synsets.txt" \
    --bounding_box_file="$scratch/boxes.csv" \
    --train_shards="${TRAINSTACK_CONVERT_TRAIN_SHARDS:?}" \
    --validation_shards="${TRAINSTACK_CONVERT_VALIDATION_SHARDS:?}" \
    --num_threads="${TRAINSTACK_CONVERT_THREADS:?}" || fail "$current" "failed"
  mkdir -p "$out/train" "$out/validation"
  for shard in "$scratch/out"/train-*; do [ -e "$shard" ] && mv -f "$shard" "$out/train/"; done
  for shard in "$scratch/out"/validation-*; do [ -e "$shard" ] && mv -f "$shard" "$out/validation/"; done
  rm -rf "$scratch"
}
