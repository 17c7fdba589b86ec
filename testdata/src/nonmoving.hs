-- nonmoving.hs: builds a large retained Map and keeps updating it, run
-- with +RTS --nonmoving-gc so the old generation is collected by the
-- concurrent nonmoving collector.
import qualified Data.Map.Strict as M
import Data.List (foldl')

main :: IO ()
main = do
  let build m r = foldl' (\mm k -> M.insert k (k + r) mm) m [1 .. 30000 :: Int]
      go m r
        | r > 8 = m
        | otherwise = let m' = build m r in M.size m' `seq` go m' (r + 1)
      final = go M.empty 1
  print (M.foldl' (+) 0 final)
