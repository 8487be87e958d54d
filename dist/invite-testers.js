import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as o}from"./chunks/chunk-XUGIWHKT.js";import"./chunks/chunk-OULGIBU3.js";import{a as i}from"./chunks/chunk-LFE3QJ7W.js";import"./chunks/chunk-ESSB7XFG.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-LC5F4MIW.js";import"./chunks/chunk-LQ4X2TR5.js";import"./chunks/chunk-S6LZZGEC.js";import"./chunks/chunk-RVAE47MI.js";import"./chunks/chunk-7DOOPZ4R.js";import"./chunks/chunk-QQMVQEPJ.js";import"./chunks/chunk-XBPPTJU7.js";await i(o);
