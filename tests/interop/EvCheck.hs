{-# LANGUAGE BangPatterns #-}
{-# LANGUAGE ScopedTypeVariables #-}
{-
evcheck: checks that eventlogs written by evtool read, with the ghc-events
library (0.17.0.3, Debian's libghc-ghc-events-dev), as the same events as
their input.

  evcheck dump FILE            one line per event in file order: TIME CAP EVENT
                               (CAP is evCap or "-", EVENT is show of evSpec),
                               plus "BLOCK TIME CAP size=S end=E offset=O" for
                               each block marker (see below)
  evcheck count FILE           number of events (block markers not counted)
  evcheck same IN OUT          same (time, cap, spec) sequence, blocks removed
  evcheck same-per-cap IN OUT  same sequence within every cap value
                               (Nothing included); order across caps is free
  evcheck caps FILE            events whose ghc-events cap differs from the cap
                               of the block that encloses them on disk
  evcheck show FILE            what `ghc-events show FILE` prints: the
                               library's ppEventLog, put with putStrLn, as the
                               show executable does; with the block markers
                               recovered from the bytes (see below) put back
                               as EventBlock events in their file places, as
                               current ghc-events' show lists them

Exit status: 0 ok / same, 1 different, 2 a file could not be read (the message
names it), 64 usage error. A truncated log is not a read failure: its complete
events are used and the truncation is reported on stderr; `same` and
`same-per-cap` fail (1) when OUT is incomplete but IN is not.

How ghc-events 0.17 reads a log (haskell/ghc-events, src/GHC/RTS/Events.hs,
Events/Incremental.hs, Events/Binary.hs, EventTypes.hs, EventParserUtils.hs;
each point below also checked on crafted logs):

* Caps come from block markers only. Binary.hs parses BLOCK_MARKER (id 18) as
  EventBlock { block_size = on-disk size - sz_block_event (24, the marker
  itself), cap = the u16 widened to Int }. Incremental.decodeEvents keeps
  (remaining, blockCap): a marker sets remaining := block_size and
  blockCap := mkCap cap, and is NOT produced: EventBlock events never reach
  the caller, so the BLOCK lines of `dump` are recovered here from the bytes
  between the events (see `decode` and `frame`). For every other event:
      evCap      := blockCap                 (the value before this event)
      remaining' := remaining - bytes the event consumed
      blockCap'  := if remaining' > 0 then blockCap else Nothing
  and the data-end marker (getEvent returns Nothing) changes neither.
* mkCap (EventTypes.hs) is `guard (fromIntegral cap /= (maxBound :: Word16))`:
  cap 0xffff (the global buffer) becomes Nothing, exactly like an event
  outside any block (e.g. 6.12's STARTUP right after "datb"). The two cases
  cannot be told apart through the library.
* Events after a block's declared end, up to the next marker, get Nothing;
  they do not inherit the previous block's cap. An event that starts inside
  the block but runs past its end keeps the cap (the test runs after it).
* Quirk: an EMPTY block (size 24, remaining 0) still sets blockCap, so the
  next non-marker event gets that cap even though it lies outside the block;
  the events after it get Nothing. A block_size below 24 wraps around
  (Word32 subtraction) and the cap then sticks until the next marker.
  Neither end_time, the marker's timestamp, nor event order is checked.
  For the writer: make block_size exact (never smaller than the events it
  covers), and never put events outside blocks right after an empty marker.
* After the data-end marker the decoder simply goes on: further bytes are
  parsed as events (a second header, i.e. a restarted log, throws the Ix
  error below on type 0x6864 "hd"; a partial event is silently ignored).
* readEventLogFromFile = fmap fst . readEventLog: the error of a failed decode
  is dropped and the events before it are returned as if the log were whole.
  readEvents stops silently when input ends mid-event, so a truncated log
  (corpus/testlog-part.eventlog: 715 events, no error) looks complete. Hence
  this program drives the same decoder itself (readHeader + decodeEvents,
  what readEventLog uses, so the events are identical) and does its own
  accounting of the bytes after the last event.
* 0.17's getEvent indexes its parser Array with the raw type number: a type
  above the highest declared id throws from pure code ("Ix{Int}.index: Index
  (8762) out of range ((0,212))" on corpus/ticky-json.eventlog: its GHC 9.5
  TICKY_COUNTER_DEF events (id 210) carry an info table and JSON that 0.17's
  parser does not consume to payload_len, so it loses sync after 40 events)
  instead of returning an Error. It is caught and reported as a read failure.
* `caps` compares ghc-events' cap with doc/format.md's rule (the cap of the block
  whose byte range holds the event's first byte; 0xffff or no block = none).
  They agree on every readable corpus and testdata log; they differ only in
  the quirks above, which a writer must avoid since `same` cannot see them.
* GHC 6.12 logs (corpus/queens-ghc-6.12.1.eventlog) read fine: 487 events;
  STARTUP is outside any block and gets Nothing; all others get a cap.
-}
module Main (main) where

import Control.Exception
import Control.Monad
import Data.Bits (shiftL, (.|.))
import Data.Char (isAscii)
import qualified Data.ByteString as B
import qualified Data.ByteString.Char8 as B8
import qualified Data.ByteString.Lazy as BL
import qualified Data.ByteString.Short as SB
import qualified Data.ByteString.Unsafe as BU
import qualified Data.IntMap.Strict as IM
import Data.List (foldl')
import qualified Data.Map.Strict as M
import qualified Data.Text as T
import qualified Data.Text.Encoding as TE
import Data.Word
import GHC.RTS.Events
import GHC.RTS.Events.Incremental
import System.Environment
import System.Exit
import System.IO

------------------------------------------------------------------------------
-- Reading

-- | One event as ghc-events produced it, with the byte offset just past it.
data Ev = Ev
  { evStart :: !Int          -- ^ first byte (set by `frame`)
  , evEnd   :: !Int          -- ^ one past the last byte the decoder consumed
  , evT     :: !Word64
  , evC     :: !(Maybe Int)
  , evS     :: !SB.ShortByteString -- ^ show of evSpec, UTF-8
  , evBlk   :: !Bool         -- ^ an EventBlock (never, with 0.17)
  , evEv    :: Event         -- ^ the event itself (for `show`)
  }

-- | A block marker found on disk (ghc-events swallows these).
data Block = Block
  { bOff :: !Int, bTime :: !Word64, bSize :: !Word32, bEndTime :: !Word64
  , bCap :: !Word16 }

data Item = IBlock !Block | IEvent !Ev

data Log = Log
  { logItems    :: [Item]    -- ^ file order
  , logProblems :: [String]  -- ^ empty when the log ends with one data-end
  , logTypes    :: [EventType] -- ^ the header's, in header order
  }

-- | The events in file order, EventBlocks removed.
logEvents :: Log -> [Ev]
logEvents lg = [e | IEvent e <- logItems lg, not (evBlk e)]

type Failure = String

u16 :: B.ByteString -> Int -> Int
u16 b i = fromIntegral (BU.unsafeIndex b i) `shiftL` 8
          .|. fromIntegral (BU.unsafeIndex b (i + 1))

beN :: Num a => B.ByteString -> Int -> Int -> a
beN b i n = fromIntegral (foldl' (\acc k -> acc `shiftL` 8
                                   .|. (fromIntegral (BU.unsafeIndex b (i + k)) :: Word64))
                                 0 [0 .. n - 1])

slice :: B.ByteString -> Int -> Int -> B.ByteString
slice b from to = B.take (to - from) (B.drop from b)

-- | Declared payload size per event type: Just n fixed, Nothing variable.
type Sizes = IM.IntMap (Maybe Int)

dataEnd, blockMarker :: Int
dataEnd = 0xffff
blockMarker = 18

-- | Length of a block marker event on disk (type + time + declared payload).
markerLen :: Sizes -> Maybe Int
markerLen sizes = case IM.lookup blockMarker sizes of
  Just (Just n) -> Just (10 + n)
  _             -> Nothing

readLog :: FilePath -> IO (Either Failure Log)
readLog path = do
  r <- try (B.readFile path)
  case r of
    Left (e :: IOException) -> return (Left ("cannot read: " ++ show e))
    Right bytes -> do
      h <- try (evaluate (forceHeader (readHeader (BL.fromStrict bytes))))
      case h of
        Left (e :: SomeException) ->
          return (Left ("ghc-events failed on the header: " ++ oneLine (show e)))
        Right (Left err) ->
          return (Left ("ghc-events cannot read the header: " ++ err))
        Right (Right (hdr, rest)) -> do
          let start = B.length bytes - fromIntegral (BL.length rest)
              sizes = IM.fromList [ (fromIntegral (num t), fromIntegral <$> size t)
                                  | t <- eventTypes hdr ]
          (evs, err) <- decode sizes bytes start hdr
          return $ case err of
            Just e -> Left e
            Nothing -> (\lg -> lg { logTypes = eventTypes hdr })
                         <$> frame sizes bytes start evs
  where
    forceHeader x@(Right (Header ts, _)) = foldl' (\a t -> a `seq` num t `seq` a) () ts `seq` x
    forceHeader x = x

-- | Drive decodeEvents over the bytes from `start`, recording where each
-- event ends. Exactness: a chunk that should end one byte before the end of
-- the next event (predicted from the declared sizes) must leave the decoder
-- wanting input, and the last byte must make it produce exactly one event.
-- When the prediction fails (6.12 logs declare wrong sizes, undeclared types,
-- truncation) the decoder state from before the chunk (a pure value) is fed
-- again one byte at a time, which is exact by construction.
decode :: Sizes -> B.ByteString -> Int -> Header -> IO ([Ev], Maybe Failure)
decode sizes bytes start hdr = loop start (decodeEvents hdr) 0 []
  where
    len = B.length bytes
    feed d chunk = case d of
      Consume k -> k chunk
      _         -> d

    -- invariant: `d` is waiting for input at a boundary, `pos` bytes fed
    loop !pos d !n acc
      | pos >= len = return (reverse acc, Nothing)
      | otherwise = case predictEnd sizes bytes pos of
          Just e | e <= len -> do
            r <- fast pos e d
            case r of
              Just (ev, d') -> loop e d' (n + 1) (ev : acc)
              Nothing       -> slow pos d n acc
          _ -> slow pos d n acc

    fast pos e d = do
      r <- try $ do
        d1 <- evaluate (feed d (slice bytes pos (e - 1)))
        case d1 of
          Consume _ -> do
            d2 <- evaluate (feed d1 (slice bytes (e - 1) e))
            case d2 of
              Produce ev d3 -> do
                d3' <- evaluate d3
                case d3' of
                  Consume _ -> do
                    ev' <- mkEv e ev
                    return (Just (ev', d3'))
                  _ -> return Nothing
              _ -> return Nothing
          _ -> return Nothing
      case r of
        Left (_ :: SomeException) -> return Nothing   -- redo slowly, report there
        Right x -> return x

    slow !pos d !n acc
      | pos >= len = return (reverse acc, Nothing)
      | otherwise = do
          r <- try (evaluate (feed d (slice bytes pos (pos + 1))))
          case r of
            Left (e :: SomeException) -> failAt (pos + 1) n acc (oneLine (show e))
            Right d' -> settle (pos + 1) d' n acc

    settle pos d !n acc = case d of
      Consume _ -> slow pos d n acc
      Produce ev d' -> do
        r <- try $ do
          ev' <- mkEv pos ev
          d'' <- evaluate d'
          return (ev', d'')
        case r of
          Left (e :: SomeException) -> failAt pos n acc (oneLine (show e))
          Right (ev', d''@(Consume _)) -> loop pos d'' (n + 1) (ev' : acc)
          Right (ev', d'') -> settle pos d'' (n + 1) (ev' : acc)
      Done _ -> failAt pos n acc "decoder finished early"
      Error _ err -> failAt pos n acc err

    failAt pos n acc why = return (reverse acc,
      Just ("ghc-events failed near byte " ++ show pos ++ " after "
            ++ show (n :: Int) ++ " events: " ++ why))

mkEv :: Int -> Event -> IO Ev
mkEv end ev = do
  -- show escapes non-ASCII, so B8.pack (exact size) is the usual case
  let shown = show (evSpec ev)
  s <- evaluate (SB.toShort (if all isAscii shown then B8.pack shown
                              else TE.encodeUtf8 (T.pack shown)))
  c <- evaluate (evCap ev)
  _ <- evaluate (maybe () (`seq` ()) c)
  let blk = case evSpec ev of
        EventBlock {} -> True
        _ -> False
  return $! Ev 0 end (evTime ev) c s blk ev

-- | End offset of the next event at or after `p`, skipping what ghc-events
-- swallows (block markers, data-end markers); Nothing when unknown.
predictEnd :: Sizes -> B.ByteString -> Int -> Maybe Int
predictEnd sizes b = go
  where
    len = B.length b
    go p
      | p + 2 > len = Nothing
      | t == dataEnd = go (p + 2)
      | t == blockMarker = markerLen sizes >>= \m -> go (p + m)
      | otherwise = case IM.lookup t sizes of
          Just (Just n) -> Just (p + 10 + n)
          Just Nothing | p + 12 <= len -> Just (p + 12 + u16 b (p + 10))
          _ -> Nothing
      where t = u16 b p

data Marker = MBlock !Block | MEnd !Int

-- | Markers from `p` up to `limit`; returns them and where they stop.
scanMarkers :: Sizes -> B.ByteString -> Int -> Int -> ([Marker], Int)
scanMarkers sizes b = go []
  where
    go acc p limit
      | p + 2 > limit = (reverse acc, p)
      | t == dataEnd = go (MEnd p : acc) (p + 2) limit
      | t == blockMarker, Just m <- markerLen sizes, p + m <= limit, m >= 24 =
          go (MBlock (Block p (beN b (p + 2) 8) (beN b (p + 10) 4)
                            (beN b (p + 14) 8) (beN b (p + 22) 2)) : acc)
             (p + m) limit
      | otherwise = (reverse acc, p)
      where t = u16 b p

-- | Place the events on disk: the bytes between two events must be block
-- markers and data-end markers, then an event with the same timestamp.
frame :: Sizes -> B.ByteString -> Int -> [Ev] -> Either Failure Log
frame sizes b start evs0 = go start evs0 [] []
  where
    len = B.length b
    go prev [] items early =
      let (ms, stop) = scanMarkers sizes b prev len
          ends = [o | MEnd o <- ms]
          tailProblems
            | stop < len, null ends =
                ["truncated: no data-end marker; the last " ++ show (len - stop)
                 ++ " bytes (from byte " ++ show stop ++ ") are an incomplete "
                 ++ (if u16ok stop && u16 b stop == blockMarker then "block marker"
                     else "event")]
            | null ends = ["truncated: no data-end marker (the log ends after byte "
                           ++ show len ++ ", on an event or block boundary)"]
            | last ends + 2 /= len || length ends > 1 =
                [show (len - head ends - 2) ++ " bytes follow the data-end marker at byte "
                 ++ show (head ends)]
            | otherwise = []
      in Right (Log (reverse (reverse (map IBlock (blocksOf ms)) ++ items))
                    (reverse early ++ tailProblems) [])
    go prev (e : rest) items early =
      let (ms, s) = scanMarkers sizes b prev (evEnd e)
          ok = s + 10 <= evEnd e && u16 b s /= dataEnd && u16 b s /= blockMarker
               && beN b (s + 2) 8 == evT e
          early' = reverse [ "data-end marker at byte " ++ show o
                             ++ " is followed by more events" | MEnd o <- ms ] ++ early
          e' = e { evStart = s }
          items' = IEvent e' : reverse (map IBlock (blocksOf ms)) ++ items
      in if ok then go (evEnd e) rest items' early'
         else Left ("evcheck lost track of byte offsets before byte " ++ show (evEnd e)
                    ++ " (event " ++ evLine e ++ ")")
    blocksOf ms = [bl | MBlock bl <- ms]
    u16ok p = p + 2 <= len

oneLine :: String -> String
oneLine = unwords . lines

------------------------------------------------------------------------------
-- Output and comparison

showCap :: Maybe Int -> String
showCap = maybe "-" show

evLineB :: Ev -> B.ByteString
evLineB e = B.concat [B8.pack (show (evT e)), B8.pack " ", B8.pack (showCap (evC e)),
                      B8.pack " ", SB.fromShort (evS e)]

evLine :: Ev -> String
evLine = T.unpack . TE.decodeUtf8 . evLineB

blockLine :: Block -> String
blockLine bl = "BLOCK " ++ show (bTime bl) ++ " "
  ++ (if bCap bl == 0xffff then "-" else show (bCap bl))
  ++ " size=" ++ show (bSize bl) ++ " end=" ++ show (bEndTime bl)
  ++ " offset=" ++ show (bOff bl)

key :: Ev -> (Word64, Maybe Int, SB.ShortByteString)
key e = (evT e, evC e, evS e)

-- | Index of the first difference, if the lists are not equal.
firstDiff :: [Ev] -> [Ev] -> Maybe (Int, Maybe Ev, Maybe Ev)
firstDiff = go 0
  where
    go _ [] [] = Nothing
    go i (a : as) (b : bs)
      | key a == key b = go (i + 1) as bs
      | otherwise = Just (i, Just a, Just b)
    go i as bs = Just (i, headMay as, headMay bs)
    headMay (x : _) = Just x
    headMay [] = Nothing

lineOr :: Maybe Ev -> String
lineOr = maybe "(no more events)" evLine

warnProblems :: FilePath -> Log -> IO ()
warnProblems path lg =
  forM_ (logProblems lg) $ \p -> hPutStrLn stderr ("evcheck: " ++ path ++ ": " ++ p)

loadOrDie :: FilePath -> IO Log
loadOrDie path = do
  r <- readLog path
  case r of
    Left err -> do
      hPutStrLn stderr ("evcheck: " ++ path ++ ": " ++ err)
      exitWith (ExitFailure 2)
    Right lg -> return lg

-- | Both logs read; OUT must not be less complete than IN.
loadPair :: FilePath -> FilePath -> IO (Log, Log)
loadPair inP outP = do
  a <- loadOrDie inP
  b <- loadOrDie outP
  warnProblems inP a
  warnProblems outP b
  return (a, b)

incompleteOut :: FilePath -> Log -> Log -> IO ()
incompleteOut outP a b =
  when (null (logProblems a) && not (null (logProblems b))) $ do
    putStrLn ("OUT " ++ outP ++ " is incomplete although IN is complete: "
              ++ head (logProblems b))
    exitWith (ExitFailure 1)

cmdSame :: FilePath -> FilePath -> IO ()
cmdSame inP outP = do
  (a, b) <- loadPair inP outP
  let ea = logEvents a
      eb = logEvents b
  case firstDiff ea eb of
    Just (i, x, y) -> do
      putStrLn ("first difference at event " ++ show i ++ " (0-based, blocks excluded):")
      putStrLn ("  IN : " ++ lineOr x)
      putStrLn ("  OUT: " ++ lineOr y)
      putStrLn ("events: IN " ++ show (length ea) ++ ", OUT " ++ show (length eb))
      exitWith (ExitFailure 1)
    Nothing -> do
      incompleteOut outP a b
      putStrLn ("same: " ++ show (length ea) ++ " events")

byCap :: [Ev] -> M.Map (Maybe Int) [Ev]
byCap evs = M.map reverse (M.fromListWith (++) [(evC e, [e]) | e <- evs])

cmdSamePerCap :: FilePath -> FilePath -> IO ()
cmdSamePerCap inP outP = do
  (a, b) <- loadPair inP outP
  let ma = byCap (logEvents a)
      mb = byCap (logEvents b)
      caps = M.keys (M.union ma mb)
      diffs = [ (c, d, length xs, length ys)
              | c <- caps
              , let xs = M.findWithDefault [] c ma
                    ys = M.findWithDefault [] c mb
              , Just d <- [firstDiff xs ys] ]
  if null diffs
    then do
      incompleteOut outP a b
      putStrLn ("same per cap: " ++ show (length (logEvents a)) ++ " events on "
                ++ show (length caps) ++ " caps")
    else do
      forM_ diffs $ \(c, (i, x, y), na, nb) -> do
        putStrLn ("cap " ++ showCap c ++ ": first difference at event " ++ show i
                  ++ " of this cap (0-based):")
        putStrLn ("  IN : " ++ lineOr x)
        putStrLn ("  OUT: " ++ lineOr y)
        putStrLn ("  events on cap " ++ showCap c ++ ": IN " ++ show na ++ ", OUT " ++ show nb)
      putStrLn ("events: IN " ++ show (length (logEvents a)) ++ ", OUT "
                ++ show (length (logEvents b)) ++ "; caps differing: "
                ++ unwords [showCap c | (c, _, _, _) <- diffs])
      exitWith (ExitFailure 1)

cmdDump :: FilePath -> IO ()
cmdDump path = do
  lg <- loadOrDie path
  hSetBuffering stdout (BlockBuffering Nothing)
  forM_ (logItems lg) $ \it -> B8.putStrLn $ case it of
    IBlock bl -> B8.pack (blockLine bl)
    IEvent e | evBlk e -> B8.pack "BLOCK " <> evLineB e
             | otherwise -> evLineB e
  hFlush stdout
  warnProblems path lg

cmdCount :: FilePath -> IO ()
cmdCount path = do
  lg <- loadOrDie path
  print (length (logEvents lg))
  warnProblems path lg

-- | The cap doc/format.md gives an event (that of the block whose bytes contain
-- its first byte; 0xffff and no block are Nothing) against ghc-events' cap.
cmdCaps :: FilePath -> IO ()
cmdCaps path = do
  lg <- loadOrDie path
  warnProblems path lg
  let go _ [] n = return n
      go _ (IBlock bl : rest) n = go (Just bl) rest n
      go cur (IEvent e : rest) n = do
        let inside bl = evStart e < bOff bl + fromIntegral (bSize bl)
            want = case cur of
              Just bl | inside bl, bCap bl /= 0xffff -> Just (fromIntegral (bCap bl))
              _ -> Nothing
        if want /= evC e
          then do
            putStrLn ("offset " ++ show (evStart e) ++ ": ghc-events cap " ++ showCap (evC e)
                      ++ ", enclosing block cap " ++ showCap want ++ ": " ++ evLine e)
            go cur rest (n + 1)
          else go cur rest n
  n <- go Nothing (logItems lg) (0 :: Int)
  if n == 0
    then putStrLn ("caps agree: " ++ show (length (logEvents lg)) ++ " events")
    else do
      putStrLn (show n ++ " events with a cap other than their block's")
      exitWith (ExitFailure 1)

-- | `ghc-events show FILE`: putStrLn (ppEventLog log), with the block
-- markers as events. ppEventLog sorts the events stably by time, so a
-- marker's place among equal timestamps is its place in the file.
cmdShow :: FilePath -> IO ()
cmdShow path = do
  lg <- loadOrDie path
  let asEvent (IEvent e) = evEv e
      asEvent (IBlock bl) = Event
        { evTime = bTime bl
        , evSpec = EventBlock { end_time = bEndTime bl
                              , cap = fromIntegral (bCap bl)
                              , block_size = bSize bl - 24 }
        , evCap = if bCap bl == 0xffff then Nothing
                  else Just (fromIntegral (bCap bl)) }
      evs = map asEvent (logItems lg)
  hSetEncoding stdout utf8
  hSetBuffering stdout (BlockBuffering Nothing)
  putStrLn (ppEventLog (EventLog (Header (logTypes lg)) (Data evs)))
  hFlush stdout
  warnProblems path lg

usage :: IO a
usage = do
  hPutStr stderr $ unlines
    [ "usage: evcheck dump FILE"
    , "       evcheck count FILE"
    , "       evcheck same IN OUT"
    , "       evcheck same-per-cap IN OUT"
    , "       evcheck caps FILE"
    , "       evcheck show FILE"
    , "exit: 0 ok, 1 different, 2 unreadable file, 64 usage" ]
  exitWith (ExitFailure 64)

main :: IO ()
main = do
  argv <- getArgs
  case argv of
    ["dump", f] -> cmdDump f
    ["count", f] -> cmdCount f
    ["same", a, b] -> cmdSame a b
    ["same-per-cap", a, b] -> cmdSamePerCap a b
    ["caps", f] -> cmdCaps f
    ["show", f] -> cmdShow f
    _ -> usage
