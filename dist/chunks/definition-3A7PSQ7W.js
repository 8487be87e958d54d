import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-2KJTSC46.js";import"./chunk-K3D5RFA3.js";import"./chunk-WQU7WER6.js";import"./chunk-7OTRBHSY.js";import"./chunk-VW3SNVYK.js";import"./chunk-DHOSGSHR.js";import"./chunk-RLTZK4B5.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
